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
 * {@code recordings/texture_modes.cu}, TextureRecordingTest; docs/validation/textures-session12.md):
 *
 * <ol>
 *   <li>Per dimension the coordinate x (times the size when normalized) gives xB = x - 0.5; under clamp addressing
 *       xB is clamped to [0, n - 1] first. i = floor(xB), and the weight a = frac(xB) is rounded to the nearest
 *       multiple of 1/256 (ties up): the guide's 9-bit fixed point with 8 fractional bits.
 *   <li>The 2, 4 or 8 texel weights are integers in units of 1/256 that always sum to 256. They come from splitting
 *       256 one dimension at a time, z first, then x, then y: a weight W splits into hi = a * W / 256 for the upper
 *       neighbour and W - hi for the lower one, hi rounded to an integer, halves up for z and x and down for y.
 *   <li>Float texels (and the border colour) are summed with these weights exactly and rounded once to float,
 *       halves away from zero.
 *   <li>8-bit unsigned texels read as normalized floats are widened to 16 bits (v * 257), summed in fixed point and
 *       rounded to the nearest 16-bit value (halves up), which is read as N / 65535.
 *   <li>A 1-D array (not layered) is a 2-D one of height 1 read at y = 0: under border addressing of y that is half
 *       the border colour (row -1) and half the row, split before x; under the other modes row -1 is the row itself.
 * </ol>
 *
 * <p>Not measured (each modelled as the float case above): signed 8-bit and 16-bit texels read as normalized floats,
 * half-float texels, the border colour with 8-bit texels, 1-D layered arrays.
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
            case U8: {
                int v = data[i] & 0xff;
                return normalizedFloat ? v / 255.0f : v;
            }
            case S8: {
                int v = data[i];
                return normalizedFloat ? Math.max(-1.0f, v / 127.0f) : v;
            }
            case U16: {
                int v = b.getShort(i) & 0xffff;
                return normalizedFloat ? v / 65535.0f : v;
            }
            case S16: {
                int v = b.getShort(i);
                return normalizedFloat ? Math.max(-1.0f, v / 32767.0f) : v;
            }
            case U32:
                return b.getInt(i) & 0xffffffffL;
            default:
                return b.getInt(i);
        }
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
            if (at[d] < 0) return border[c];
        }
        return channel(at[0], at[1], at[2], layer, c);
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
        for (int k = 0; k < n; k++) {
            int m = corners[k];
            int whole = w[m];
            int hi = (a * whole + (halvesUp ? 128 : 127)) >> 8;
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

    /** Whether channel values of this texture are summed in 16-bit fixed point (8-bit unsigned, normalized). */
    private boolean fixedPoint() {
        return format == Format.U8 && normalizedFloat;
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
        if (dims >= 2) n = split(f.w, f.corners, n, Y, a[1], false);
        f.n = n;
        return f;
    }

    /** Linear filtering of channel c of layer l over a footprint: the class comment's steps 3 and 4. */
    private float filter(Footprint f, int l, int c) {
        int n = f.n;
        int[] w = f.w, corners = f.corners, base = f.base;
        boolean row = f.row;
        boolean fixed = fixedPoint();
        double sum = 0;
        boolean exact = true;
        double[] terms = new double[n];
        int[] idx = new int[3];
        for (int k = 0; k < n; k++) {
            int m = corners[k];
            if (w[m] == 0) continue;
            double t;
            if (row && (m & ROW) == 0) {
                t = fixed ? border[c] * 65535.0 : border[c];
            } else {
                idx[0] = base[0] + (m & X);
                idx[1] = base[1] + ((m & Y) >> 1);
                idx[2] = base[2] + ((m & Z) >> 2);
                t = fixed ? fixedTexel(idx, l, c) : texel(idx, l, c);
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
        if (fixed) return (float) Math.floor(sum / 256 + 0.5) / 65535f;
        if (!Double.isFinite(sum)) return (float) sum;
        if (exact) return nearestTiesAway(sum / 256);
        BigDecimal s = BigDecimal.ZERO;
        for (double t : terms) s = s.add(new BigDecimal(t));
        return nearestTiesAway(s.divide(BigDecimal.valueOf(256)));
    }

    /** An 8-bit texel widened to 16 bits (v * 257), or the border colour on that scale. */
    private double fixedTexel(int[] idx, int layer, int c) {
        int[] size = {width, height, depth};
        int[] at = {0, 0, 0};
        for (int d = 0; d < dims; d++) {
            at[d] = address(idx[d], size[d], d);
            if (at[d] < 0) return border[c] * 65535.0;
        }
        long i = ((((long) layer * depth + at[2]) * height + at[1]) * rowPitch) + (long) at[0] * texelBytes() + c;
        return (data[(int) i] & 0xff) * 257;
    }

    /**
     * Samples with float coordinates (tex.Nd...f32): four channel values as float bits (missing channels 0, alpha
     * 1), or integer values for integer formats read as elements.
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
                out[c] = c == 3 ? (floatResult ? Float.floatToRawIntBits(1.0f) & 0xffffffffL : 1) : 0;
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
            if (c >= channels) v = c == 3 ? 1 : 0;
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
