package org.quire.runtime;

/** Element-wise combination used by {@link Communicator#reduce} and {@link Communicator#allreduce}. */
public enum ReduceOp {
    SUM,
    MIN,
    MAX;

    public long apply(long a, long b) {
        return switch (this) {
            case SUM -> a + b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
        };
    }

    public double apply(double a, double b) {
        return switch (this) {
            case SUM -> a + b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
        };
    }
}
