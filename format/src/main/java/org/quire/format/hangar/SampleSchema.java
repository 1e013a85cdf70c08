package org.quire.format.hangar;

import java.util.Arrays;

/**
 * The shape part of a Hangar column schema, against which a record's shape is checked: a
 * fixed-shape schema admits exactly {@code shape}; a variable-shape one admits any shape of the
 * same rank whose extents are at most {@code shape}'s (Hangar's {@code schema_shape} is then the
 * maximum). The dtype is not part of a record, so it plays no part here.
 */
public record SampleSchema(long[] shape, boolean variableShape) {

    public SampleSchema {
        shape = shape.clone();
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("schema extents must be >= 0: "
                        + Arrays.toString(shape));
            }
        }
    }

    /** A fixed-shape schema: every sample has exactly this shape. */
    public static SampleSchema fixed(long... shape) {
        return new SampleSchema(shape, false);
    }

    /** A variable-shape schema: samples of this rank, each extent at most this one. */
    public static SampleSchema variable(long... maximum) {
        return new SampleSchema(maximum, true);
    }

    @Override public long[] shape() {
        return shape.clone();
    }

    int rank() {
        return shape.length;
    }

    long extent(int dimension) {
        return shape[dimension];
    }

    boolean admits(int dimension, long extent) {
        return variableShape ? extent <= shape[dimension] : extent == shape[dimension];
    }

    /** The shape as Python prints a tuple, as Hangar's schemas show it: (10,), (20, 2, 3). */
    String text() {
        StringBuilder out = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            out.append(i == 0 ? "" : ", ").append(shape[i]);
        }
        return out.append(shape.length == 1 ? ",)" : ")").toString();
    }

    @Override public boolean equals(Object other) {
        return other instanceof SampleSchema that && variableShape == that.variableShape
                && Arrays.equals(shape, that.shape);
    }

    @Override public int hashCode() {
        return 31 * Arrays.hashCode(shape) + Boolean.hashCode(variableShape);
    }

    @Override public String toString() {
        return (variableShape ? "variable-shape" : "fixed-shape") + " schema " + text();
    }
}
