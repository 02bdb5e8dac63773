package dev.numlint.validation.interp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A texture object as the texture unit samples it (CUDA C++ Programming Guide, "Texture Fetching"): texels of one
 * to four channels of an integer or float format in a 1-D, 2-D or 3-D array (optionally layered), read with
 * unnormalized or normalized coordinates, point or linear filtering, and per-dimension addressing (clamp, border,
 * wrap, mirror; wrap and mirror only with normalized coordinates, clamp otherwise, as the hardware does).
 *
 * <p>Linear filtering follows the guide's definition: the coordinate x (scaled by the size when normalized) gives
 * xB = x - 0.5, i = floor(xB) and the weight alpha = frac(xB) held in 9-bit fixed point with 8 fractional bits:
 * alpha is rounded to the nearest multiple of 1/256 (ties up). The result is the weighted sum of the 2, 4 or 8
 * neighbouring texels (each addressed on its own, so that the border colour or the wrapped texel takes part). The
 * weights and texels are combined exactly and the sum rounded once to float; the texture unit's own arithmetic may
 * differ from this in the last bit, which the comparison with outputs recorded on a GPU shows.
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
        Address a = address[dim];
        if (!normalizedCoords && (a == Address.WRAP || a == Address.MIRROR)) a = Address.CLAMP;
        switch (a) {
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

    /** The 9-bit fixed-point weight of a fraction: 8 fractional bits, rounded to nearest. */
    static double weight(double frac) {
        return Math.floor(frac * 256 + 0.5) / 256;
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
                int[] base = new int[3];
                double[] a = new double[3];
                for (int d = 0; d < dims; d++) {
                    double xb = safe(x[d]) - 0.5;
                    base[d] = (int) Math.floor(xb);
                    a[d] = weight(xb - Math.floor(xb));
                }
                v = 0;
                for (int corner = 0; corner < (1 << dims); corner++) {
                    double w = 1;
                    int[] idx = new int[3];
                    for (int d = 0; d < dims; d++) {
                        boolean hi = (corner >> d & 1) != 0;
                        idx[d] = base[d] + (hi ? 1 : 0);
                        w *= hi ? a[d] : 1 - a[d];
                    }
                    if (w != 0) v += w * texel(idx, l, c);
                }
                if (dims == 1 && layers == 0) {
                    // The texture unit filters a 1-D array as a 2-D one of height 1 read at y = 0: half of the row
                    // and half of row -1, which is the row itself except under border addressing, where it is the
                    // border colour (measured on an H200: TextureRecordingTest).
                    if (address(-1, 1, 1) < 0) v = 0.5 * v + 0.5 * border[c];
                }
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
