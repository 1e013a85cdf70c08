package org.quire.examples.heat;

import java.nio.ByteBuffer;

import org.quire.runtime.Communicator;

/**
 * What every rank learns after a step, in one collective (one allgather rather than a reduction
 * each, as every collective costs a round of messages): the total energy, summed in rank order
 * so that every rank gets the same bits, the highest temperature, and whether any rank was asked
 * to stop. Ranks receive a stop request at slightly different moments; agreeing on it here makes
 * all of them stop after the same step.
 */
record StepSummary(double energy, double maxTemperature, boolean stopRequested) {

    private static final int BYTES = 2 * Double.BYTES + 1;

    static StepSummary ofAllRanks(Communicator world, RowBlock block, boolean stopRequested) {
        byte[] mine = ByteBuffer.allocate(BYTES).putDouble(block.energy()).putDouble(block.maxTemperature())
                .put((byte) (stopRequested ? 1 : 0)).array();
        double energy = 0;
        double max = Double.NEGATIVE_INFINITY;
        boolean stop = false;
        for (byte[] rank : world.allgather(mine)) {
            ByteBuffer in = ByteBuffer.wrap(rank);
            energy += in.getDouble();
            max = Math.max(max, in.getDouble());
            stop |= in.get() != 0;
        }
        return new StepSummary(energy, max, stop);
    }
}
