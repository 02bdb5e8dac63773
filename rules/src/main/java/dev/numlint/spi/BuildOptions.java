package dev.numlint.spi;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the build model chooses the configuration it evaluates (the build-model options of {@code numlint scan}).
 *
 * @param compileCommandsDir {@code -p DIR}: the directory holding compile_commands.json (as clang-tidy takes it),
 *                           or null to look at the scan root and its {@code build*}/ directories
 * @param makeTarget         {@code --make-target T}: the Makefile goal instead of the default goal, or null
 * @param cmakeDefines       {@code --cmake-define NAME=VALUE} (repeatable): cache values that win over
 *                           {@code option()}/{@code set(... CACHE ...)} defaults and over a preset's values
 * @param preset             {@code --preset NAME}: a configure preset of CMakePresets.json / CMakeUserPresets.json
 *                           whose cacheVariables (with those of the presets it inherits) apply, or null
 */
public record BuildOptions(
        Path compileCommandsDir, String makeTarget, Map<String, String> cmakeDefines, String preset) {
    public static final BuildOptions DEFAULT = new BuildOptions(null, null, Map.of(), null);

    public BuildOptions {
        cmakeDefines = cmakeDefines == null
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(cmakeDefines));
    }
}
