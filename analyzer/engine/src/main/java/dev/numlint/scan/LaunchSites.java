package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Location;
import dev.numlint.model.RelatedLocation;
import dev.numlint.spi.KernelLink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The launch sites of linked kernel files (a JCuda host launching a PTX or CUDA kernel): each finding in such a file
 * gets the launch site as a related location.
 */
final class LaunchSites {
    private LaunchSites() {}

    /** Findings in linked kernel files get the launch site as a related location. */
    static List<Finding> attach(
            List<Finding> findings, List<KernelLink> links, java.util.function.Function<Path, String> relativize) {
        if (links.isEmpty()) {
            return findings;
        }
        Map<String, List<KernelLink>> byFile = new HashMap<>();
        for (KernelLink l : links) {
            if (l.launchSite() != null) {
                byFile.computeIfAbsent(relativize.apply(l.kernelFile()), k -> new ArrayList<>())
                        .add(l);
            }
        }
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            List<KernelLink> ls = byFile.get(f.location().file());
            if (ls == null) {
                out.add(f);
                continue;
            }
            Finding.Builder b = null;
            Set<RelatedLocation> have = new HashSet<>(f.related());
            List<KernelLink> sorted = new ArrayList<>(ls);
            sorted.sort(Comparator.comparing((KernelLink l) -> l.launchSite().file())
                    .thenComparingInt(l -> l.launchSite().startLine()));
            for (KernelLink l : sorted) {
                if (l.kernelName() != null
                        && f.function() != null
                        && !f.function().contains(l.kernelName())) {
                    continue;
                }
                Location site = l.launchSite();
                String file = site.file();
                String name = file.substring(file.lastIndexOf('/') + 1);
                RelatedLocation r = new RelatedLocation(site, "launched from " + name + ":" + site.startLine());
                if (have.add(r)) {
                    if (b == null) {
                        b = f.toBuilder();
                    }
                    b.related(r);
                }
            }
            out.add(b == null ? f : b.build());
        }
        return out;
    }
}
