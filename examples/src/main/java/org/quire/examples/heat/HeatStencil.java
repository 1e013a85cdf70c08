package org.quire.examples.heat;

/**
 * The physics of {@link HeatDiffusion}: the heat equation {@code dT/dt = laplacian(T)} on the unit
 * square, an n x n grid of interior cells of width {@code h = 1 / (n + 1)} with the boundary held
 * at 0, stepped by explicit finite differences with the 5-point stencil. The same {@link #step}
 * serves every rank's row block and the serial recomputation of {@code --verify}: each cell is
 * computed by the same expression from the same operands, so the results are bitwise equal
 * whatever the decomposition.
 */
final class HeatStencil {

    /**
     * {@code dt / h^2}: the explicit 5-point scheme is stable for values up to 1/4; 0.2 keeps a
     * margin.
     */
    static final double ALPHA = 0.2;

    private HeatStencil() {
    }

    /** The time step of an n x n grid. */
    static double dt(int n) {
        double h = 1.0 / (n + 1);
        return ALPHA * h * h;
    }

    /** The area of one cell, which weights temperatures into the total energy. */
    static double cellArea(int n) {
        double h = 1.0 / (n + 1);
        return h * h;
    }

    /**
     * The starting temperature of cell (row, col): the slowest decaying mode of the square, plus a
     * hot disk off the centre. StrictMath, so that every JVM starts from the same bits.
     */
    static double initial(long row, int col, int n) {
        double h = 1.0 / (n + 1);
        double x = (col + 1) * h;
        double y = (row + 1) * h;
        double mode = 100 * StrictMath.sin(Math.PI * x) * StrictMath.sin(Math.PI * y);
        double dx = x - 0.3;
        double dy = y - 0.6;
        return dx * dx + dy * dy < 0.01 ? mode + 200 : mode;
    }

    /**
     * One time step of {@code rows} interior rows of {@code cols} cells: {@code from} and {@code
     * to} hold {@code rows + 2} rows, row 0 and row {@code rows + 1} being the neighbours' rows (or
     * the boundary's zeros); only the interior rows of {@code to} are written. Columns beyond the
     * grid are the boundary (0).
     */
    static void step(double[] from, double[] to, int rows, int cols) {
        for (int r = 1; r <= rows; r++) {
            int row = r * cols;
            for (int c = 0; c < cols; c++) {
                double centre = from[row + c];
                double left = c > 0 ? from[row + c - 1] : 0.0;
                double right = c < cols - 1 ? from[row + c + 1] : 0.0;
                double up = from[row - cols + c];
                double down = from[row + cols + c];
                to[row + c] = centre + ALPHA * ((up + down) + (left + right) - 4 * centre);
            }
        }
    }
}
