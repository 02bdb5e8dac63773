package dev.numlint.ptx.model;

/** Internal: lets the reader attach debug locations while building instructions. Not part of the model API. */
public final class Access {
    private Access() {
    }

    public static void setLoc(Instruction in, DebugLoc loc) {
        in.loc = loc;
    }
}
