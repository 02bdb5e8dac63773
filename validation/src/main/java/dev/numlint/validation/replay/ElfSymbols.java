package dev.numlint.validation.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The name of a data symbol in a 64-bit little-endian ELF file's full symbol table ({@code .symtab}, which holds the
 * file-local symbols {@code .dynsym} lacks): how `numlint record` names the host variable of a
 * {@code cudaMemcpyToSymbol} whose address the capture layer saw ({@code static __constant__ float c_Kernel[17]} has a
 * host shadow variable of the same name, local to the program). The program is the one the user named to record.
 * Hostile input: every offset and size is checked against the file; nothing but headers, the symbol table and its
 * string table is read.
 */
final class ElfSymbols {
    private ElfSymbols() {}

    private static final int SHT_SYMTAB = 2, STT_OBJECT = 1, ET_EXEC = 2, ET_DYN = 3;
    private static final long MAX_TABLE = 512L << 20;

    /**
     * The name of the object symbol at {@code address} of {@code elf} loaded at {@code base} (the capture layer's
     * dladdr: a position-independent file's symbols are relative to its load base), or null: not an ELF64 LE file,
     * no {@code .symtab} (stripped), no such symbol.
     */
    static String nameAt(Path elf, long address, long base) throws IOException {
        try (FileChannel ch = FileChannel.open(elf, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            ByteBuffer h = read(ch, 0, 64, size);
            if (h == null || h.getInt(0) != 0x464c457f || h.get(4) != 2 || h.get(5) != 1) return null;
            int type = h.getShort(16) & 0xffff;
            if (type != ET_EXEC && type != ET_DYN) return null;
            long target = type == ET_DYN ? address - base : address;
            long shoff = h.getLong(0x28);
            int shentsize = h.getShort(0x3a) & 0xffff, shnum = h.getShort(0x3c) & 0xffff;
            if (shentsize < 64 || shnum == 0) return null;
            ByteBuffer sh = read(ch, shoff, (long) shentsize * shnum, size);
            if (sh == null) return null;
            for (int i = 0; i < shnum; i++) {
                int at = i * shentsize;
                if (sh.getInt(at + 4) != SHT_SYMTAB) continue;
                long symOff = sh.getLong(at + 0x18), symSize = sh.getLong(at + 0x20), entsize = sh.getLong(at + 0x38);
                int link = sh.getInt(at + 0x28);
                if (entsize < 24 || link < 0 || link >= shnum || symSize > MAX_TABLE) return null;
                int lat = link * shentsize;
                long strOff = sh.getLong(lat + 0x18), strSize = sh.getLong(lat + 0x20);
                if (strSize > MAX_TABLE) return null;
                ByteBuffer syms = read(ch, symOff, symSize, size), strs = read(ch, strOff, strSize, size);
                if (syms == null || strs == null) return null;
                for (long s = 0; s + 24 <= symSize; s += entsize) {
                    int e = (int) s;
                    if ((syms.get(e + 4) & 0xf) != STT_OBJECT || syms.getLong(e + 8) != target) continue;
                    return string(strs, syms.getInt(e));
                }
                return null;
            }
            return null;
        }
    }

    private static ByteBuffer read(FileChannel ch, long off, long n, long size) throws IOException {
        if (off < 0 || n < 0 || n > MAX_TABLE || off > size || n > size - off) return null;
        ByteBuffer b = ByteBuffer.allocate((int) n).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) if (ch.read(b, off + b.position()) < 0) return null;
        return b.flip();
    }

    private static String string(ByteBuffer strs, int at) {
        if (at < 0 || at >= strs.limit()) return null;
        int end = at;
        while (end < strs.limit() && strs.get(end) != 0 && end - at < 1024) end++;
        byte[] b = new byte[end - at];
        strs.get(at, b);
        String s = new String(b, StandardCharsets.UTF_8);
        return Recording.SYMBOL.matcher(s).matches() ? s : null;
    }
}
