package org.quire.launcher.h5;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Floating-point numbers as the fewest decimal digits that read back as the same number
 * (Python's {@code repr}): {@code 0.1}, {@code 2.5}, {@code 1e-05}, {@code 1.2345678901234567e+16},
 * {@code nan}, {@code -inf}. Java 17's {@code Double.toString} is not always shortest, so the
 * digits are found by rounding the exact binary value to 1, 2, ... significant digits.
 */
final class ShortestFloat {

    /** Python switches to exponent notation outside 1e-4 <= |x| < 1e16. */
    private static final int MIN_PLAIN_EXPONENT = -4;
    private static final int MAX_PLAIN_EXPONENT = 16;

    private ShortestFloat() {
    }

    static String format(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value) || value == 0) {
            return special(value);
        }
        BigDecimal exact = new BigDecimal(value);
        for (int digits = 1; ; digits++) {
            BigDecimal rounded = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() == value) {
                return layout(rounded);
            }
        }
    }

    static String format(float value) {
        if (Float.isNaN(value) || Float.isInfinite(value) || value == 0) {
            return special(value);
        }
        BigDecimal exact = new BigDecimal(value);
        for (int digits = 1; ; digits++) {
            BigDecimal rounded = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (rounded.floatValue() == value) {
                return layout(rounded);
            }
        }
    }

    private static String special(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return 1 / value < 0 ? "-0.0" : "0.0";
    }

    /** {@code number}'s significant digits placed as Python places them. */
    private static String layout(BigDecimal number) {
        BigDecimal stripped = number.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        String sign = stripped.signum() < 0 ? "-" : "";
        // The value is 0.digits x 10^(exponent + 1).
        int exponent = digits.length() - stripped.scale() - 1;
        if (exponent < MIN_PLAIN_EXPONENT || exponent >= MAX_PLAIN_EXPONENT) {
            String mantissa = digits.length() == 1 ? digits
                    : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        if (exponent < 0) {
            return sign + "0." + "0".repeat(-exponent - 1) + digits;
        }
        if (digits.length() <= exponent + 1) {
            return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
        }
        return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }
}
