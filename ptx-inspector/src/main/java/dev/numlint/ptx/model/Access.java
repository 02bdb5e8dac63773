package dev.numlint.ptx.model;

/** Internal: lets the reader attach debug locations while building instructions. Not part of the model API. */
public final class Access {
    private Access() {}

    public static void setLoc(Instruction in, DebugLoc loc) {
        in.loc = loc;
    }

    /** Replaces the operands once branch labels are resolved (a label may follow the branch). */
    public static void setOperands(Instruction in, java.util.List<Operand> operands) {
        in.operands = operands;
    }

    /**
     * Fills in file paths of every debug location once the module's .file table is known (nvcc writes .file
     * after the functions).
     */
    public static void resolveFiles(java.util.List<PtxFunction> functions, java.util.Map<Integer, String> files) {
        if (files.isEmpty()) return;
        java.util.Map<DebugLoc, DebugLoc> done = new java.util.IdentityHashMap<>();
        for (PtxFunction f : functions) {
            for (Instruction in : f.instructions()) {
                if (in.loc != null) in.loc = resolve(in.loc, files, done);
            }
            if (f.firstLoc != null) f.firstLoc = resolve(f.firstLoc, files, done);
        }
    }

    private static DebugLoc resolve(
            DebugLoc d, java.util.Map<Integer, String> files, java.util.Map<DebugLoc, DebugLoc> done) {
        DebugLoc r = done.get(d);
        if (r != null) return r;
        java.util.List<SourcePos> chain =
                new java.util.ArrayList<>(d.inlinedAt().size());
        for (SourcePos p : d.inlinedAt()) chain.add(withFile(p, files));
        r = new DebugLoc(withFile(d.pos(), files), d.functionName(), chain);
        done.put(d, r);
        return r;
    }

    private static SourcePos withFile(SourcePos p, java.util.Map<Integer, String> files) {
        return p.file() != null ? p : new SourcePos(p.fileIndex(), files.get(p.fileIndex()), p.line(), p.column());
    }
}
