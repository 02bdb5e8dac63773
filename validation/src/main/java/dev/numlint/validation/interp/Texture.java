package dev.numlint.validation.interp;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A texture object as the texture unit samples it (CUDA C++ Programming Guide, "Texture Fetching"): texels of one
 * to four channels of an integer or float format in a 1-D, 2-D or 3-D array (optionally layered), read with
 * unnormalized or normalized coordinates, point or linear filtering, and per-dimension addressing (clamp, border,
 * wrap, mirror; wrap and mirror only with normalized coordinates, clamp otherwise, as the hardware does).
 *
 * <p>Linear filtering is the texture unit's own arithmetic, measured on an H200 (every element of the 50 launches of
 * {@code recordings/texture_modes.cu}, TextureRecordingTest, docs/validation/textures-session12.md; and of the 18
 * of {@code texture_ties.cu}, TextureTiesRecordingTest, docs/validation/textures-session14.md):
 *
 * <ol>
 *   <li>Per dimension the coordinate x (times the size when normalized) gives xB = x - 0.5; under clamp addressing
 *       xB is clamped to [0, n - 1] first. i = floor(xB), and the weight a = frac(xB) is rounded to the nearest
 *       multiple of 1/256 (ties up): the guide's 9-bit fixed point with 8 fractional bits.
 *   <li>The 2, 4 or 8 texel weights are integers in units of 1/256 that always sum to 256. They come from splitting
 *       256 one dimension at a time, z first, then x, then y: a weight W splits into hi = a * W / 256 for the upper
 *       neighbour and W - hi for the lower one, hi rounded to an integer, halves up for z and x; for y halves up in
 *       the upper x column and down in the lower one (so in 2-D the upper-right weight is a * b / 256 rounded halves
 *       up and each dimension's upper weights sum to exactly a and b: every one of the 65,536 weight pairs of
 *       {@code texture_ties.cu}, session 14).
 *   <li>Float texels (and the border colour) are summed with these weights exactly and rounded once to float,
 *       halves away from zero; half-float texels the same, rounded once to a half float.
 *   <li>8- and 16-bit integer texels read as normalized floats are filtered in 16-bit fixed point: unsigned 8-bit
 *       texels widened to v * 257, 16-bit texels as they are; the weighted sum S (units of 1/256) is rounded to the
 *       nearest 16-bit value N = floor(S / 256 + 1/2) (halves up, towards +infinity, negative ones too: session
 *       15's signed 16-bit sweep). Signed 8-bit texels are summed as they are, P = the sum of v * w (a 16-bit
 *       signed value, 8 fractional bits), and P is converted to 16 bits by steps: N = P + floor((P + 16 *
 *       floor(P / 4096) + 64) / 128), about P * 32767 / 32512 (every one of the 22,422 products of session 15's
 *       sweep of every texel at every weight, docs/validation/textures-session15.md). N is clamped to [-32767,
 *       32767] for signed texels (-32768 and -128 take part unclamped) and read as N / 65535 (unsigned) or N /
 *       32767 (signed). The border colour is first rounded to the texel format: its float product with 255, 65535,
 *       127 or 32767 rounded to the nearest integer, ties to even (0.25 is the 8-bit 64, 0.3 the 8-bit 76). Point
 *       filtering reads one texel the same way (weight 256), except signed 8-bit texels, which it reads as v / 127
 *       (at least -1), without the steps. A half-float texture's border colour is cut to a half toward zero.
 *   <li>A 1-D array (not layered) is a 2-D one of height 1 read at y = 0: under border addressing of y that is half
 *       the border colour (row -1) and half the row, split before x; under the other modes row -1 is the row itself.
 * </ol>
 *
 * <p>Measured on the H200 recordings of {@code texture_ties.cu} (session 14, TextureTiesRecordingTest: every element
 * of the 18 launches) and of {@code s8_sweep.cu} (session 15, SignedEightBitRecordingTest: signed 8-bit texels at
 * every weight and in random 2-D sums, signed 16-bit texels; docs/validation/textures-session15.md) and of {@code
 * tex_formats.cu} (session 16, TextureFormatsRecordingTest: point filtering of two- and four-channel signed 8-bit
 * texels, 3-D and layered arrays of 8-bit, 16-bit and half texels, 1-D arrays under border addressing, the half border
 * colour; docs/validation/textures-session16.md).
 */
public final class Texture {
    /** Addressing of one dimension. */
    public enum Address {
        WRAP,
        CLAMP,
        MIRROR,
        BORDER
    }

    /** Texel formats (CUarray_format). */
    public enum Format {
        U8(1, false, false),
        S8(1, true, false),
        U16(2, false, false),
        S16(2, true, false),
        U32(4, false, false),
        S32(4, true, false),
        F16(2, true, true),
        F32(4, true, true);

        final int bytes;
        final boolean signed, isFloat;

        Format(int bytes, boolean signed, boolean isFloat) {
            this.bytes = bytes;
            this.signed = signed;
            this.isFloat = isFloat;
        }
    }

    public final int dims;
    public final int width, height, depth, layers;
    public final int channels;
    public final Format format;
    /** Bytes from one row to the next (at least width * channels * size); rows of a 3-D or layered array follow. */
    public final long rowPitch;

    private final byte[] data;
    public boolean normalizedCoords;
    public boolean linear;
    /** cudaReadModeNormalizedFloat: 8- and 16-bit integer texels read as floats in [0, 1] (or [-1, 1]). */
    public boolean normalizedFloat;

    public final Address[] address = {Address.CLAMP, Address.CLAMP, Address.CLAMP};
    public final float[] border = new float[4];

    /**
     * A texture of width x height x depth texels (1 for unused dimensions; layers 0 when not layered) over data,
     * rowPitch bytes per row (0: packed).
     */
    public Texture(
            int dims,
            int width,
            int height,
            int depth,
            int layers,
            int channels,
            Format format,
            long rowPitch,
            byte[] data) {
        if (dims < 1 || dims > 3) throw new IllegalArgumentException("texture of " + dims + " dimensions");
        if (channels != 1 && channels != 2 && channels != 4)
            throw new IllegalArgumentException("texture with " + channels + " channels");
        if (width < 1 || height < 1 || depth < 1 || layers < 0)
            throw new IllegalArgumentException("texture of " + width + "x" + height + "x" + depth + " texels");
        this.dims = dims;
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.layers = layers;
        this.channels = channels;
        this.format = format;
        long texelBytes = (long) channels * format.bytes;
        this.rowPitch = rowPitch == 0 ? width * texelBytes : rowPitch;
        if (this.rowPitch < width * texelBytes)
            throw new IllegalArgumentException("row pitch " + rowPitch + " below the row's " + width * texelBytes);
        long need = this.rowPitch * height * depth * Math.max(1, layers);
        if (data.length < need)
            throw new IllegalArgumentException("texture data of " + data.length + " bytes, " + need + " needed");
        this.data = data;
    }

    private int texelBytes() {
        return channels * format.bytes;
    }

    /** Channel c of texel (x, y, z) of layer as a float (integer formats: as read mode says), no addressing. */
    private double channel(int x, int y, int z, int layer, int c) {
        long at = ((((long) layer * depth + z) * height + y) * rowPitch)
                + (long) x * texelBytes()
                + (long) c * format.bytes;
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int i = (int) at;
        switch (format) {
            case F32:
                return b.getFloat(i);
            case F16:
                return half(b.getShort(i));
            case U8:
            case S8:
            case U16:
            case S16: {
                int v = raw(i);
                return normalizedFloat ? pointRead(widened(v)) : v;
            }
            case U32:
                return b.getInt(i) & 0xffffffffL;
            default:
                return b.getInt(i);
        }
    }

    /** The integer at byte i of an 8- or 16-bit integer format. */
    private int raw(int i) {
        switch (format) {
            case U8:
                return data[i] & 0xff;
            case S8:
                return data[i];
            case U16:
                return (data[i] & 0xff) | (data[i + 1] & 0xff) << 8;
            default:
                return (short) ((data[i] & 0xff) | (data[i + 1] << 8));
        }
    }

    /** The largest texel value of an 8- or 16-bit integer format (what a normalized read maps to 1). */
    private int maxRaw() {
        switch (format) {
            case U8:
                return 255;
            case S8:
                return 127;
            case U16:
                return 65535;
            default:
                return 32767;
        }
    }

    /** The 16-bit value 1.0 is: 65535 for unsigned texels, 32767 for signed. */
    private int fullScale() {
        return format.signed ? 32767 : 65535;
    }

    /**
     * A texel in the fixed-point sum: unsigned 8-bit v * 257 (units of 1/65535), 16-bit v (1/65535 or 1/32767),
     * signed 8-bit v as it is (units of 1/127; {@link #fixedResult} converts the sum).
     */
    private long widened(int v) {
        return format == Format.U8 ? v * 257L : v;
    }

    /**
     * A fixed-point sum (widened texels times weights in units of 1/256) as the 16-bit value N the texture unit
     * returns, clamped, and read as a float: halves up for 8-bit and 16-bit sums; a signed 8-bit sum P (8 fractional
     * bits) converted by steps, N = P + floor((P + 16 * floor(P / 4096) + 64) / 128) (the class comment, step 4).
     */
    private float fixedResult(long sum) {
        long n = format == Format.S8 ? sum + ((sum + 16 * (sum >> 12) + 64) >> 7) : (sum + 128) >> 8;
        int full = fullScale();
        n = Math.max(format.signed ? -full : 0, Math.min(full, n));
        return n / (float) full; // correctly rounded: n and full are exact floats
    }

    /** The border colour of channel c rounded to the texel format, widened as a texel. */
    private long fixedBorder(int c) {
        int max = maxRaw();
        // the product in float, rounded to nearest even: 0.3 with 8-bit texels is 76 (0.3f * 255 is 76.5 in float),
        // 0.25 is 64 (textures-session16.md, session 14)
        float b = Math.max(format.signed ? -1 : 0, Math.min(1, border[c])) * (float) max;
        return widened((int) Math.rint(b));
    }

    /**
     * The border colour of a half-float texture: the float colour cut to a half float toward zero (0.3 reads
     * 0.2998046875, not the nearer 0.300048828125: every border sample of tex_formats.cu's half launches,
     * docs/validation/textures-session16.md); beyond the largest half, the largest half.
     */
    static float halfTowardZero(double d) {
        if (d == 0 || !Double.isFinite(d)) return (float) d;
        double a = Math.abs(d);
        double ulp = Math.scalb(1.0, Math.max(Math.getExponent(a), -14) - 10);
        double r = Math.min(65504, Math.floor(a / ulp) * ulp); // a / ulp: exact, a power-of-two scaling
        return (float) Math.copySign(r, d);
    }

    /** The half float nearest to d, halves away from zero (binary16: 10 fraction bits, exponents -14 to 15). */
    static float nearestHalfTiesAway(double d) {
        if (d == 0 || !Double.isFinite(d)) return (float) d;
        double a = Math.abs(d);
        double ulp = Math.scalb(1.0, Math.max(Math.getExponent(a), -14) - 10);
        double m = a / ulp; // exact: a power-of-two scaling
        double whole = Math.floor(m);
        if (m - whole >= 0.5) whole += 1;
        double r = whole * ulp;
        if (r > 65504) r = Double.POSITIVE_INFINITY;
        return (float) Math.copySign(r, d);
    }

    /** An IEEE binary16 value. */
    static float half(short h) {
        int s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
        float v = e == 0
                ? m * 0x1p-24f
                : e == 31
                        ? (m == 0 ? Float.POSITIVE_INFINITY : Float.NaN)
                        : (1 + m / 1024f) * (float) Math.pow(2, e - 15);
        return s == 1 ? -v : v;
    }

    /** Texel index i of a dimension of n texels under its addressing mode, or -1 for the border. */
    int address(int i, int n, int dim) {
        switch (mode(dim)) {
            case BORDER:
                return i < 0 || i >= n ? -1 : i;
            case WRAP:
                return Math.floorMod(i, n);
            case MIRROR: {
                int j = Math.floorMod(i, 2 * n);
                return j < n ? j : 2 * n - 1 - j;
            }
            default:
                return Math.max(0, Math.min(n - 1, i));
        }
    }

    /** The texels' values at (x, y, z) after addressing (the border colour outside), channel c. */
    private double texel(int[] idx, int layer, int c) {
        int[] size = {width, height, depth};
        int[] at = {0, 0, 0};
        for (int d = 0; d < dims; d++) {
            at[d] = address(idx[d], size[d], d);
            if (at[d] < 0) return borderColour(c);
        }
        return channel(at[0], at[1], at[2], layer, c);
    }

    /** The border colour of channel c as a sample reads it: in the texel format for 8- and 16-bit and half texels. */
    private double borderColour(int c) {
        if (fixedPoint()) return pointRead(fixedBorder(c));
        return format == Format.F16 ? halfTowardZero(border[c]) : border[c];
    }

    /**
     * One 8- or 16-bit texel (widened) read by point filtering as a normalized float: as the weight-256 sum of the
     * fixed-point filter (N / 65535 or N / 32767), except signed 8-bit texels, which point filtering reads as v / 127
     * (at least -1) rounded once to float, without the linear filter's 16-bit steps (every point sample of
     * tex_formats.cu's two- and four-channel signed 8-bit launches, docs/validation/textures-session16.md).
     */
    private float pointRead(long widened) {
        if (format == Format.S8) return (float) Math.max(-1.0, widened / 127.0);
        return fixedResult(widened * 256);
    }

    /** The 9-bit fixed-point weight of a fraction in [0, 1): 8 fractional bits, rounded to nearest (ties up). */
    static int weight(double frac) {
        double f = frac * 256; // exact: a power-of-two scaling
        int i = (int) Math.floor(f);
        return f - i >= 0.5 ? i + 1 : i;
    }

    /** The addressing a dimension gets: wrap and mirror clamp without normalized coordinates. */
    private Address mode(int dim) {
        Address a = address[dim];
        return !normalizedCoords && (a == Address.WRAP || a == Address.MIRROR) ? Address.CLAMP : a;
    }

    /**
     * Bits of a corner (an index into the weights): the upper neighbour in x, y, z, and for a 1-D array row 0 rather
     * than row -1.
     */
    private static final int X = 1, Y = 2, Z = 4, ROW = 8;

    /**
     * Splits each weight {@code w[m]} (units of 1/256) of the corners listed in {@code corners[0..n)} into the upper
     * neighbour along {@code bit}, a * W / 256 rounded halves up or down, and the lower one, the rest. Returns the new
     * number of corners.
     */
    private static int split(int[] w, int[] corners, int n, int bit, int a, boolean halvesUp) {
        return split(w, corners, n, bit, a, halvesUp ? -1 : 0);
    }

    /**
     * As above, halves up for the corners that have one of the bits of {@code upWhen} (the y split: halves up in the
     * upper x column, down in the lower), down for the others; -1: halves up for all.
     */
    private static int split(int[] w, int[] corners, int n, int bit, int a, int upWhen) {
        for (int k = 0; k < n; k++) {
            int m = corners[k];
            int whole = w[m];
            boolean up = upWhen == -1 || (m & upWhen) != 0;
            int hi = (a * whole + (up ? 128 : 127)) >> 8;
            w[m | bit] = hi;
            w[m] = whole - hi;
            corners[n + k] = m | bit;
        }
        return 2 * n;
    }

    /** The float nearest to d, halves away from zero (the texture unit's rounding of a filtered value). */
    static float nearestTiesAway(double d) {
        float f = (float) d; // halves to even
        if (Double.isNaN(d) || Float.isInfinite(f) || (double) f == d) return f;
        float g = d > f ? Math.nextUp(f) : Math.nextDown(f);
        if (Float.isInfinite(g)) return f;
        return Math.abs((double) g - d) == Math.abs(d - (double) f) && Math.abs(g) > Math.abs(f) ? g : f;
    }

    /** The float nearest to an exact value, halves away from zero. */
    static float nearestTiesAway(BigDecimal s) {
        float best = (float) s.doubleValue();
        if (Float.isInfinite(best)) return best;
        BigDecimal bestDistance = s.subtract(new BigDecimal(best)).abs();
        for (float c : new float[] {Math.nextUp(best), Math.nextDown(best)}) {
            if (Float.isInfinite(c)) continue;
            BigDecimal d = s.subtract(new BigDecimal(c)).abs();
            int cmp = d.compareTo(bestDistance);
            if (cmp < 0 || (cmp == 0 && Math.abs(c) > Math.abs(best))) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Whether channel values of this texture are summed in 16-bit fixed point (8- and 16-bit, normalized). */
    private boolean fixedPoint() {
        return normalizedFloat && (format.bytes == 1 || format == Format.U16 || format == Format.S16);
    }

    /** The texels a linear sample reads and their weights, the same for every channel. */
    private static final class Footprint {
        final int[] base = new int[3];
        /** Weight of each corner, in units of 1/256 (indexed by the corner's bits). */
        final int[] w = new int[16];
        /** The corners, corners[0..n). */
        final int[] corners = new int[16];

        int n;
        /** Whether row -1 of a 1-D array (the border colour) takes part. */
        boolean row;
    }

    /** The footprint of a linear sample at (x, y, z), already scaled to texels: the class comment's steps 1, 2, 5. */
    private Footprint footprint(double[] x) {
        Footprint f = new Footprint();
        int[] size = {width, height, depth};
        int[] a = new int[3];
        for (int d = 0; d < dims; d++) {
            double xb = safe(x[d]) - 0.5;
            if (mode(d) == Address.CLAMP) xb = Math.max(0, Math.min(size[d] - 1, xb));
            double fl = Math.floor(xb);
            f.base[d] = (int) fl;
            a[d] = weight(xb - fl);
        }
        f.w[0] = 256;
        int n = 1;
        // a 1-D array is a 2-D one of height 1 read at y = 0; row -1 differs from row 0 only under border addressing
        f.row = dims == 1 && layers == 0 && address(-1, 1, 1) < 0;
        if (f.row) n = split(f.w, f.corners, n, ROW, 128, true);
        if (dims == 3) n = split(f.w, f.corners, n, Z, a[2], true);
        n = split(f.w, f.corners, n, X, a[0], true);
        if (dims >= 2) n = split(f.w, f.corners, n, Y, a[1], X);
        f.n = n;
        return f;
    }

    /** Linear filtering of channel c of layer l over a footprint: the class comment's steps 3 and 4. */
    private float filter(Footprint f, int l, int c) {
        int n = f.n;
        int[] w = f.w, corners = f.corners, base = f.base;
        boolean row = f.row;
        boolean fixed = fixedPoint();
        if (fixed) return fixedFilter(f, l, c);
        boolean half = format == Format.F16;
        double sum = 0;
        boolean exact = true;
        double[] terms = new double[n];
        int[] idx = new int[3];
        for (int k = 0; k < n; k++) {
            int m = corners[k];
            if (w[m] == 0) continue;
            double t;
            if (row && (m & ROW) == 0) {
                t = half ? halfTowardZero(border[c]) : border[c];
            } else {
                idx[0] = base[0] + (m & X);
                idx[1] = base[1] + ((m & Y) >> 1);
                idx[2] = base[2] + ((m & Z) >> 2);
                t = texel(idx, l, c);
            }
            double term = w[m] * t; // exact: 9 bits times a float's 24
            terms[k] = term;
            double s = sum + term;
            // Knuth's two-sum: what the double sum lost
            double bv = s - sum;
            double lost = (sum - (s - bv)) + (term - bv);
            if (lost != 0) exact = false;
            sum = s;
        }
        if (!Double.isFinite(sum)) return (float) sum;
        // half texels times 9-bit weights span at most 52 bits: their double sum is exact
        if (half) return nearestHalfTiesAway(sum / 256);
        if (exact) return nearestTiesAway(sum / 256);
        BigDecimal s = BigDecimal.ZERO;
        for (double t : terms) s = s.add(new BigDecimal(t));
        return nearestTiesAway(s.divide(BigDecimal.valueOf(256)));
    }

    /** Linear filtering in 16-bit fixed point (the class comment's step 4): an exact integer sum, rounded once. */
    private float fixedFilter(Footprint f, int l, int c) {
        int[] size = {width, height, depth};
        int[] at = new int[3];
        long sum = 0;
        for (int k = 0; k < f.n; k++) {
            int m = f.corners[k];
            if (f.w[m] == 0) continue;
            long t;
            if (f.row && (m & ROW) == 0) {
                t = fixedBorder(c);
            } else {
                int[] idx = {f.base[0] + (m & X), f.base[1] + ((m & Y) >> 1), f.base[2] + ((m & Z) >> 2)};
                t = Long.MIN_VALUE;
                for (int d = 0; d < dims && t == Long.MIN_VALUE; d++) {
                    at[d] = address(idx[d], size[d], d);
                    if (at[d] < 0) t = fixedBorder(c);
                }
                if (t == Long.MIN_VALUE) t = widened(raw(offset(at, l, c)));
            }
            sum += f.w[m] * t;
        }
        return fixedResult(sum);
    }

    /** The byte offset of channel c of texel at (after addressing) in layer l. */
    private int offset(int[] at, int l, int c) {
        return (int) (((((long) l * depth + at[2]) * height + at[1]) * rowPitch)
                + (long) at[0] * texelBytes()
                + (long) c * format.bytes);
    }

    /**
     * Samples with float coordinates (tex.Nd...f32): four channel values as float bits (missing channels 0, alpha
     * too: recorded on an H200 for a two-channel texture), or integer values for integer formats read as elements.
     */
    public long[] sample(double[] coord, int layer) {
        int[] size = {width, height, depth};
        double[] x = new double[3];
        for (int d = 0; d < dims; d++) x[d] = normalizedCoords ? coord[d] * size[d] : coord[d];
        boolean floatResult = format.isFloat || normalizedFloat;
        int l = clampLayer(layer);
        Footprint footprint = linear && floatResult ? footprint(x) : null;
        long[] out = new long[4];
        for (int c = 0; c < 4; c++) {
            if (c >= channels) {
                out[c] = 0; // the H200 reads 0 for every missing channel, alpha too (texture_ties.cu, uchar2)
                continue;
            }
            double v;
            if (!linear || !floatResult) {
                int[] idx = new int[3];
                for (int d = 0; d < dims; d++) idx[d] = (int) Math.floor(safe(x[d]));
                v = texel(idx, l, c);
            } else {
                v = filter(footprint, l, c);
            }
            out[c] = floatResult ? Float.floatToRawIntBits((float) v) & 0xffffffffL : (long) v & 0xffffffffL;
        }
        return out;
    }

    /** Fetches with integer texel coordinates (tex.Nd...s32, tex1Dfetch): no filtering, no normalization. */
    public long[] fetch(int[] idx, int layer) {
        boolean floatResult = format.isFloat || normalizedFloat;
        int l = clampLayer(layer);
        long[] out = new long[4];
        int[] size = {width, height, depth};
        boolean outside = false;
        for (int d = 0; d < dims; d++) outside |= idx[d] < 0 || idx[d] >= size[d];
        for (int c = 0; c < 4; c++) {
            double v;
            if (c >= channels) v = 0;
            else if (outside) v = 0; // linear memory fetched out of range reads 0
            else v = channel(idx[0], dims > 1 ? idx[1] : 0, dims > 2 ? idx[2] : 0, l, c);
            out[c] = floatResult ? Float.floatToRawIntBits((float) v) & 0xffffffffL : (long) v & 0xffffffffL;
        }
        return out;
    }

    private int clampLayer(int layer) {
        return layers == 0 ? 0 : Math.max(0, Math.min(layers - 1, layer));
    }

    /** NaN and infinite coordinates address texel 0 (clamped like any other). */
    private static double safe(double v) {
        if (Double.isNaN(v)) return 0;
        return Math.max(-1e9, Math.min(1e9, v));
    }
}
