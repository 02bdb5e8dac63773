package dev.numlint.ptx.model;

/** A position in a CUDA source file: the .file index, its path as written in the PTX, line and column (0 unknown). */
public record SourcePos(int fileIndex, String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + (column > 0 ? ":" + column : "");
    }
}
