package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXType;

/**
 * What the copy of a file's cursors ({@link ClangWalker}) reads from the file's text instead of asking libclang, each
 * call of which costs a crossing into native code and, for a structure, an allocation:
 *
 * <ul>
 *   <li>the value of an integer or floating literal written in the file ({@code 0x1p-3f}, {@code 1'000u}): the value
 *       libclang's evaluation gives (a {@code float} literal's value is the float's, widened); a literal a macro's
 *       body spells, or one this reading does not know ({@code 1.0L}, {@code 2.0f16}), is evaluated by libclang;
 *   <li>a large table of integers ({@code static const uint64_t codes[] = {0x..., ...}}, tens of thousands of
 *       entries in generated tag families, CRC tables, font bitmaps): an initializer list of at least {@link
 *       #TABLE_BYTES} bytes of text holding only integer literals, signs, braces, commas and comments, for an
 *       array whose element type is an integer type. Its elements are not copied: no rule reads an integer
 *       constant of a table (nothing in it converts, rounds or accumulates), and a table of 48,000 literals cost
 *       more to copy than the rest of its translation unit to parse. A table outside functions of double literals
 *       (a number, or a structure of numbers, per element: libnova's 36,000 rows of lunar series coefficients ran
 *       the Clang worker out of memory, session 54) is not copied either, nor one outside functions of integer
 *       literals whose element is a structure (session 60: an HRTF library's filter sets): no rule reads a constant
 *       table's elements through the copy (its bounds come from libclang, {@link ClangWalker#constantTable}). A table with
 *       a float literal ({@code 0.1f}), any name or expression in it, or inside a function, is copied whole.
 * </ul>
 */
final class ClangLiterals {
    /** The size of text from which an integer table's elements are not copied. */
    static final int TABLE_BYTES = 16 * 1024;

    private ClangLiterals() {}

    /**
     * The value of the literal of {@code kind} written at {@code [start, end]} of {@code text} (the offsets of its
     * extent), or null: not written there as a literal this reads (libclang evaluates it then).
     */
    static Double value(int kind, byte[] text, int start, int end) {
        if (start < 0 || end <= start || end > text.length || end - start > 64) return null;
        String t = new String(text, start, end - start, StandardCharsets.ISO_8859_1);
        if (t.indexOf('\'') >= 0) t = t.replace("'", "");
        try {
            return kind == CXCursor_IntegerLiteral ? integer(t) : kind == CXCursor_FloatingLiteral ? floating(t) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A C/C++ integer literal's value as libclang's evaluation widens it: the 64 bits, as a signed long, to double. The
     * literal's form is {@link #integerToken}'s, the one reading of it here.
     */
    private static Double integer(String t) {
        byte[] b = t.getBytes(StandardCharsets.ISO_8859_1);
        if (b.length == 0 || b[0] < '0' || b[0] > '9' || integerToken(b, 0, b.length) != b.length) return null;
        int e = t.length();
        while ("uUlLzZ".indexOf(t.charAt(e - 1)) >= 0) e--; // the token has a digit before its suffix
        String d = t.substring(0, e).replace("'", "");
        int radix = 10;
        if (d.length() > 2 && d.charAt(0) == '0' && (d.charAt(1) == 'x' || d.charAt(1) == 'X')) {
            radix = 16;
            d = d.substring(2);
        } else if (d.length() > 2 && d.charAt(0) == '0' && (d.charAt(1) == 'b' || d.charAt(1) == 'B')) {
            radix = 2;
            d = d.substring(2);
        } else if (d.length() > 1 && d.charAt(0) == '0') {
            radix = 8;
            d = d.substring(1);
        }
        BigInteger v = new BigInteger(d, radix);
        return v.bitLength() > 64 ? null : (double) v.longValue();
    }

    private static boolean suffix(String s) {
        return s.isEmpty() || s.matches("(?i)u|l|ll|ul|lu|ull|llu|z|uz|zu");
    }

    /** A floating literal's value: {@code f}/{@code F} is a float's, no suffix a double's; any other form is asked. */
    private static Double floating(String t) {
        char last = t.charAt(t.length() - 1);
        boolean single = last == 'f' || last == 'F';
        String body = single ? t.substring(0, t.length() - 1) : t;
        if (body.isEmpty()) return null;
        boolean hex = body.length() > 2 && body.charAt(0) == '0' && (body.charAt(1) == 'x' || body.charAt(1) == 'X');
        for (int i = 0; i < body.length(); i++) {
            char ch = body.charAt(i);
            boolean ok = ch >= '0' && ch <= '9'
                    || ch == '.'
                    || ch == '+'
                    || ch == '-'
                    || (hex
                            ? Character.digit(ch, 16) >= 0 || ch == 'x' || ch == 'X' || ch == 'p' || ch == 'P'
                            : ch == 'e' || ch == 'E');
            if (!ok) return null;
        }
        if (hex && body.indexOf('p') < 0 && body.indexOf('P') < 0) return null;
        // Java's parsers take exactly these forms (and round correctly, as Clang does), once the suffix is gone
        return single ? (double) Float.parseFloat(body) : Double.parseDouble(body);
    }

    /**
     * Whether the initializer list {@code n} (cursor {@code c}) is a large table of integers whose elements are not
     * copied (see the class comment).
     */
    static boolean integerTable(ClangNode n, CXCursor c, byte[] text) {
        if (n.kind != CXCursor_InitListExpr) return false;
        int start = n.offset, end = n.endOffset;
        if (start < 0 || end > text.length || end - start < TABLE_BYTES) return false;
        boolean integers = integersOnly(text, start, end, false);
        if (!integers && (inFunction(n) || !integersOnly(text, start, end, true))) return false;
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        while (t.kind() == CXType_ConstantArray || t.kind() == CXType_IncompleteArray) {
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        }
        // outside functions, a structure of integer literals too (session 60: an HRTF library's filter sets, four
        // 450 KB tables of structures of short arrays, ran the Clang worker out of memory)
        if (integers && t.kind() == CXType_Record) return !inFunction(n);
        if (integers) return t.kind() >= CXType_Bool && t.kind() <= CXType_Int128;
        return t.kind() >= CXType_Bool && t.kind() <= CXType_LongDouble || t.kind() == CXType_Record;
    }

    /** Whether {@code n} is below a function's definition (its parents are set as the walk copies it). */
    private static boolean inFunction(ClangNode n) {
        for (ClangNode p = n.parent; p != null; p = p.parent)
            if (ClangUnit.FUNCTION_KINDS.contains(p.kind)) return true;
        return false;
    }

    /** {@link #integersOnly(byte[], int, int, boolean)} without floating literals. */
    static boolean integersOnly(byte[] text, int start, int end) {
        return integersOnly(text, start, end, false);
    }

    /**
     * Only integer literals (with digit separators and suffixes), signs, braces, commas, space and comments; with
     * {@code floating}, double literals too ({@code -411.602870}, {@code 1e-3}; one with an {@code f} suffix is not:
     * a float literal in a double table is NL014's).
     */
    static boolean integersOnly(byte[] text, int start, int end, boolean floating) {
        int i = start;
        while (i < end) {
            int ch = text[i] & 0xff;
            if (ch == ' '
                    || ch == '\t'
                    || ch == '\n'
                    || ch == '\r'
                    || ch == '\f'
                    || ch == ','
                    || ch == '{'
                    || ch == '}'
                    || ch == '+'
                    || ch == '-') {
                i++;
            } else if (ch == '/' && i + 1 < end && text[i + 1] == '*') {
                int close = indexOf(text, i + 2, end, "*/");
                if (close < 0) return false;
                i = close + 2;
            } else if (ch == '/' && i + 1 < end && text[i + 1] == '/') {
                while (i < end && text[i] != '\n') i++;
            } else if (ch >= '0' && ch <= '9' || floating && ch == '.') {
                int k = ch == '.' ? -1 : integerToken(text, i, end);
                i = k < 0 && floating ? doubleToken(text, i, end) : k;
                if (i < 0) return false;
            } else {
                return false; // a name, a cast, a floating literal, a string, a macro
            }
        }
        return true;
    }

    /**
     * The end of the integer literal that starts at {@code i} (a digit), or -1 where the token there is not one: hex
     * digits after {@code 0x}, binary after {@code 0b}, decimal (or octal) digits otherwise, digit separators between
     * digits, then a suffix of {@code u}, {@code l}, {@code ll}, {@code z} in either case, and nothing of a name or a
     * floating form after it.
     */
    static int integerToken(byte[] text, int i, int end) {
        int radix = 10;
        if (text[i] == '0' && i + 1 < end && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            radix = 16;
            i += 2;
        } else if (text[i] == '0' && i + 1 < end && (text[i + 1] == 'b' || text[i + 1] == 'B')) {
            radix = 2;
            i += 2;
        }
        int digits = 0;
        boolean octal = radix == 10 && text[i] == '0';
        while (i < end) {
            int ch = text[i] & 0xff;
            int d = Character.digit(ch, radix);
            if (d >= 0) {
                if (octal && d > 7) return -1;
                digits++;
                i++;
            } else if (ch == '\'' && digits > 0 && i + 1 < end && Character.digit(text[i + 1] & 0xff, radix) >= 0) {
                i++;
            } else {
                break;
            }
        }
        if (digits == 0) return -1;
        int s = i;
        while (i < end && "uUlLzZ".indexOf(text[i] & 0xff) >= 0) i++;
        if (i - s > 3 || i - s > 0 && !suffix(new String(text, s, i - s, StandardCharsets.ISO_8859_1))) return -1;
        if (i < end && (Character.isLetterOrDigit(text[i] & 0xff) || text[i] == '_' || text[i] == '.')) return -1;
        return i;
    }

    /**
     * The end of the double literal that starts at {@code i} (a digit or a point): digits, a point, digits, an
     * exponent with its sign, no suffix but {@code l}/{@code L}; -1 where the token there is not one.
     */
    static int doubleToken(byte[] text, int i, int end) {
        int digits = 0;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            i++;
            digits++;
        }
        if (i < end && text[i] == '.') i++;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            i++;
            digits++;
        }
        if (digits == 0) return -1;
        if (i < end && (text[i] == 'e' || text[i] == 'E')) {
            i++;
            if (i < end && (text[i] == '+' || text[i] == '-')) i++;
            int e = 0;
            while (i < end && text[i] >= '0' && text[i] <= '9') {
                i++;
                e++;
            }
            if (e == 0) return -1;
        }
        if (i < end && (text[i] == 'l' || text[i] == 'L')) i++;
        if (i < end && (Character.isLetterOrDigit(text[i] & 0xff) || text[i] == '_' || text[i] == '.')) return -1;
        return i;
    }

    private static int indexOf(byte[] text, int from, int end, String what) {
        outer:
        for (int i = from; i + what.length() <= end; i++) {
            for (int k = 0; k < what.length(); k++) {
                if (text[i + k] != what.charAt(k)) continue outer;
            }
            return i;
        }
        return -1;
    }
}
