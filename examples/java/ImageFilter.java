/**
 * Gaussian smoothing of a 16-bit grey image, with an 8-bit preview, in the style of a plugin of an image processing
 * program. The CUDA port of this filter produces different pixels; each method shows one reason.
 */
public final class ImageFilter {
    private ImageFilter() {
    }

    /** Normalised Gaussian kernel of the given radius. */
    static float[] kernel(int radius, float sigma) {
        float[] k = new float[2 * radius + 1];
        float sum = 0f;
        for (int i = -radius; i <= radius; i++) {
            k[i + radius] = (float) Math.exp(-(i * i) / (2.0 * sigma * sigma));
            sum += k[i + radius];
        }
        for (int i = 0; i < k.length; i++) {
            k[i] /= sum;
        }
        return k;
    }

    /** Horizontal pass over one row of 16-bit pixels (stored in a char[] as unsigned values). */
    static void smoothRow(char[] pixels, int width, int row, float[] k, float gain, float offset) {
        int r = k.length / 2;
        float[] out = new float[width];
        for (int x = 0; x < width; x++) {
            float acc = 0f;
            for (int j = -r; j <= r; j++) {
                int xx = Math.min(width - 1, Math.max(0, x + j));
                acc += k[j + r] * pixels[row * width + xx];
            }
            out[x] = acc;
        }
        for (int x = 0; x < width; x++) {
            // background subtraction can go below 0: (char) -69.235f is 65467, the GPU stores 0
            pixels[row * width + x] = (char) (gain * out[x] - offset);
        }
    }

    /** Mean intensity of the image. */
    static float mean(char[] pixels) {
        float sum = 0f;
        for (char p : pixels) {
            sum += p;
        }
        return sum / pixels.length;
    }

    /** 8-bit preview with display gamma; brightening can exceed 255. */
    static byte[] preview(char[] pixels, float brighten) {
        byte[] out = new byte[pixels.length];
        for (int i = 0; i < pixels.length; i++) {
            float v = pixels[i] / 257f;
            v *= 1.1;
            out[i] = (byte) (brighten * v);
        }
        return out;
    }

    /** The same preview, with the range written down: reproducible on every platform. */
    static byte[] previewClamped(char[] pixels, float brighten) {
        byte[] out = new byte[pixels.length];
        for (int i = 0; i < pixels.length; i++) {
            float v = pixels[i] / 257f * 1.1f;
            out[i] = (byte) Math.max(0, Math.min(255, Math.round(brighten * v)));
        }
        return out;
    }
}
