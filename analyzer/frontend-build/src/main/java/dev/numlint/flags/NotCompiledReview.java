package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.NotCompiledNote;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Findings in a file that the configured build is known not to compile ({@link BuildContext#notCompiledReason()}:
 * its compilation database lists the units of this configuration and not this one) are notes ({@link
 * NotCompiledNote}). Build-flag findings are about the build itself and are left as they are.
 */
final class NotCompiledReview {
    private NotCompiledReview() {}

    static List<Finding> review(List<Finding> findings, Map<String, BuildContext> contexts) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            BuildContext c = f.layer() == Layer.BUILD_FLAGS || f.level() == Level.NOTE
                    ? null
                    : contexts.get(f.location().file());
            String why = c == null ? null : c.notCompiledReason();
            if (why == null) {
                out.add(f);
                continue;
            }
            out.add(NotCompiledNote.apply(f.toBuilder(), why).build());
        }
        return out;
    }
}
