class Stats {
    static byte quantize(double v) {
        return (byte) v;  // HAZARD(NL011,quantize)
    }
}
