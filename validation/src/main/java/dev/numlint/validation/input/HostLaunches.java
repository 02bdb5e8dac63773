package dev.numlint.validation.input;

import dev.numlint.model.HostLaunch;
import java.util.List;
import java.util.Map;

/** Applies a launch read from host code to a spec inferred from the PTX, recording where each part came from. */
public final class HostLaunches {
    private HostLaunches() {}

    private static int size(String t) {
        return switch (t) {
            case "u8", "s8" -> 1;
            case "u16", "s16" -> 2;
            case "u64", "s64", "f64" -> 8;
            default -> 4;
        };
    }

    /**
     * Overrides grid, block, shared memory, array lengths, scalar values and aggregate bytes of ks with what the
     * host launch resolved; whatever it did not resolve stays inferred and is marked so in provenance.
     */
    public static void apply(HostLaunch h, KernelSpec ks, Map<String, String> provenance, List<String> notes) {
        provenance.put("source", "host code: launch at " + h.at);
        ks.source = "host code at " + h.at;
        if (h.grid != null) {
            ks.grid = h.grid.clone();
            provenance.put("grid", java.util.Arrays.toString(h.grid) + " from " + h.provenance.get("grid"));
        } else provenance.put("grid", "inferred (not statically known at " + h.at + ")");
        if (h.block != null) {
            ks.block = h.block.clone();
            provenance.put("block", java.util.Arrays.toString(h.block) + " from " + h.provenance.get("block"));
        } else
            provenance.put(
                    "block", "inferred (not statically known at " + h.at + "): " + java.util.Arrays.toString(ks.block));
        if (h.sharedBytes != null) {
            ks.sharedBytes = h.sharedBytes;
            provenance.put("shared", h.sharedBytes + " bytes from " + h.provenance.get("shared"));
        }
        if (h.args.size() != ks.params.size()) {
            notes.add("the launch at " + h.at + " passes " + h.args.size() + " arguments, the kernel's PTX has "
                    + ks.params.size() + " parameters; parameters inferred from the PTX");
            for (ParamSpec ps : ks.params) provenance.put(ps.name, "inferred: " + ps);
            return;
        }
        int maxLen = 0;
        for (int i = 0; i < ks.params.size(); i++) {
            ParamSpec ps = ks.params.get(i);
            HostLaunch.Arg a = h.args.get(i);
            String what = "argument " + (i + 1) + " '" + a.expr + "'";
            if (ps.isArray() && a.bufferBytes != null) {
                ps.length = (int) Math.min(Integer.MAX_VALUE / 8, a.bufferBytes / size(ps.type));
                maxLen = Math.max(maxLen, ps.length);
                provenance.put(ps.name, ps.length + " elements of " + ps.type + ": " + what + " = " + a.provenance);
                if (a.fill != null && ps.isInput()) ps.hostFill = a.fill;
            } else if (!ps.isArray() && "bytes".equals(ps.kind) && a.bytes != null) {
                if (ps.length != null && a.bytes.length != ps.length) {
                    provenance.put(
                            ps.name,
                            "zeros (inferred): the host struct " + what + " has " + a.bytes.length
                                    + " bytes, the PTX parameter " + ps.length);
                    continue;
                }
                ps.bytes = new int[a.bytes.length];
                for (int k = 0; k < a.bytes.length; k++) ps.bytes[k] = a.bytes[k] & 0xFF;
                provenance.put(ps.name, "struct bytes from " + what + ": " + a.provenance);
            } else if (!ps.isArray() && !"bytes".equals(ps.kind) && a.value != null) {
                ps.value = a.value;
                provenance.put(ps.name, "value " + a.value + " from " + what + ": " + a.provenance);
            } else {
                provenance.put(ps.name, "inferred (" + what + " not statically known): " + ps);
            }
        }
        if (maxLen > 0 && ks.elements == null) ks.elements = maxLen;
    }
}
