package dev.numlint.cuda.clang;

/** Lets a test change a tree after {@link dev.numlint.toolchain.TreeMacros} has read it. */
final class TreeMacrosReset {
    private TreeMacrosReset() {}

    static void forget() {
        dev.numlint.toolchain.TreeMacros.forget();
    }
}
