package dev.numlint.cli;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Layer;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numlint rules}: lists the rule catalog. */
@Command(name = "rules", mixinStandardHelpOptions = true, description = "List the rules numlint checks.")
final class RulesCommand implements Callable<Integer> {
    enum Format {
        text,
        json
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        RuleCatalog catalog = RuleCatalog.get();
        if (format == Format.json) {
            List<Object> list = new ArrayList<>();
            for (Rule r : catalog.all()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", r.id());
                m.put("name", r.name());
                m.put("level", r.level().id());
                m.put("category", r.category());
                m.put("cwe", r.cwe());
                m.put("layers", r.layers().stream().map(Layer::id).toList());
                m.put("summary", r.summary());
                m.put("helpUri", r.helpUri());
                list.add(m);
            }
            DefaultIndenter indent = new DefaultIndenter("  ", "\n");
            out.print(new ObjectMapper()
                            .writer(new DefaultPrettyPrinter()
                                    .withObjectIndenter(indent)
                                    .withArrayIndenter(indent))
                            .writeValueAsString(list)
                    + "\n");
        } else {
            int nameWidth = catalog.all().stream()
                    .mapToInt(r -> r.name().length())
                    .max()
                    .orElse(10);
            for (Rule r : catalog.all()) {
                out.print(String.format(
                                "%s  %-7s  %-" + nameWidth + "s  %s%n",
                                r.id(),
                                r.level().id(),
                                r.name(),
                                r.summary())
                        .replace(System.lineSeparator(), "\n"));
            }
        }
        out.flush();
        return Main.EXIT_OK;
    }
}
