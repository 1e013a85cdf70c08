# Functions for Quire's batch scripts (slurm/quire-job.sbatch, slurm/heat.sbatch), sourced from
# "$QUIRE_HOME/slurm/quire-batch.sh": sbatch runs a copy of the script from its spool directory,
# so the script cannot find this file beside itself. Environment: see slurm/quire-job.sbatch.

# quire_srun MAIN_CLASS [ARGS...]: runs the program as one step of the job, one rank per task.
# The job's secret (256 random bits; see docs/security.md) is written to a file only the user can
# read, named to the ranks by QUIRE_SECRET_FILE (srun passes the environment on; the secret itself
# never is in the environment or on a command line), and deleted when the script ends.
# srun -K stops the whole step as soon as one rank fails (MPJ never notices a dead peer);
# -l prefixes each output line with the rank.
quire_srun() {
  local quire_home=${QUIRE_HOME:-$SLURM_SUBMIT_DIR}
  export MPJ_HOME=${MPJ_HOME:-/usr/share/mpj}
  local class_path="$quire_home/launcher/target/lib/*:$MPJ_HOME/lib/mpj.jar:${QUIRE_CLASSPATH:-$quire_home/examples/target/quire-examples.jar}"
  local secret_dir=${QUIRE_SECRET_DIR:-$HOME/.quire}
  # -m 700 would not change an existing directory: chmod does (and fails on a directory of another user).
  mkdir -p "$secret_dir"
  chmod 700 "$secret_dir"
  export QUIRE_SECRET_FILE="$secret_dir/job-$SLURM_JOB_ID.secret"
  trap 'rm -f "$QUIRE_SECRET_FILE"' EXIT
  (umask 077 && head -c 32 /dev/urandom > "$QUIRE_SECRET_FILE")
  srun -K -l java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -Dhazelcast.logging.type=none -cp "$class_path" "$@"
}

# quire_resubmit_unless DONE_FILE SCRIPT [ARGS...]: when DONE_FILE (which the program writes once its
# work is done) does not exist, submits SCRIPT with ARGS to start once this job has ended
# (sbatch --dependency=afterany), with this job's task and node counts, time limit and name,
# appending to this job's output file. QUIRE_RESUBMISSION (exported, so the next job sees it)
# counts the jobs of the chain; after QUIRE_RESUBMIT_MAX (default 10) resubmissions it gives up
# with status 1. Call it after a step that ended with status 0.
# Resubmission rather than `scontrol requeue`: a requeued job keeps its id but Slurm holds it
# pending before it may start again (on the local cluster it was still pending a minute later).
# sbatch options in the environment (SBATCH_SIGNAL, ...) reach the next job as they reached this one.
quire_resubmit_unless() {
  local done_file=$1; shift
  [[ -e $done_file ]] && return 0
  local max=${QUIRE_RESUBMIT_MAX:-10}
  export QUIRE_RESUBMISSION=$(( ${QUIRE_RESUBMISSION:-0} + 1 ))
  if (( QUIRE_RESUBMISSION > max )); then
    echo "quire-batch: $done_file still missing after $max resubmissions; not submitting again" >&2
    return 1
  fi
  local output next
  output=$(scontrol show job "$SLURM_JOB_ID" | sed -n 's/^ *StdOut=//p')
  next=$(sbatch --parsable --dependency="afterany:$SLURM_JOB_ID" --job-name="$SLURM_JOB_NAME" \
    --ntasks="$SLURM_NTASKS" --nodes="$SLURM_JOB_NUM_NODES" --time="$(squeue -h -j "$SLURM_JOB_ID" -o %l)" \
    --output="$output" --open-mode=append "$@")
  echo "quire-batch: $done_file missing: submitted job $next (resubmission $QUIRE_RESUBMISSION) to resume after job $SLURM_JOB_ID"
}
