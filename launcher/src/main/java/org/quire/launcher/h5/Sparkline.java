package org.quire.launcher.h5;

/**
 * Numbers drawn as one line of the eight block characters U+2581 to U+2588, the lowest value as
 * the shortest bar and the highest as the full block; a value that is no number (NaN, an
 * infinity) is a space, and a series whose finite values are all equal is drawn at half height.
 */
final class Sparkline {

    private static final String BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";
    private static final int FLAT = 3;

    private Sparkline() {
    }

    static String of(double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double value : values) {
            if (Double.isFinite(value)) {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        // A range beyond the largest double (-1e308 to 1e308) is scaled in halves, which cannot overflow.
        double scale = Double.isInfinite(max - min) ? 0.5 : 1;
        double range = max * scale - min * scale;
        StringBuilder line = new StringBuilder(values.length);
        for (double value : values) {
            if (!Double.isFinite(value)) {
                line.append(' ');
            } else if (max == min) {
                line.append(BARS.charAt(FLAT));
            } else {
                // Scaled to [0, 8), the maximum into the last bar.
                int bar = (int) ((value * scale - min * scale) / range * BARS.length());
                line.append(BARS.charAt(Math.min(bar, BARS.length() - 1)));
            }
        }
        return line.toString();
    }
}
