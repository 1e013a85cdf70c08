/**
 * The main job (docs/heat.md): {@link org.quire.examples.heat.HeatDiffusion}, 2-D heat diffusion
 * on row blocks over the ranks that checkpoints into SION files, restarts from the latest complete
 * one on any rank count, checks the result bitwise against a serial run, stops on request after
 * a final checkpoint, and writes per-step diagnostics to HDF5 in SWMR mode for readers that follow
 * it while it runs.
 */
package org.quire.examples.heat;
