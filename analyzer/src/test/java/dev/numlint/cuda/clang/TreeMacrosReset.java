package dev.numlint.cuda.clang;

/** Lets a test change a tree after {@link TreeMacros} has read it. */
final class TreeMacrosReset {
    private TreeMacrosReset() {}

    static void forget() {
        TreeMacros.forget();
    }
}
