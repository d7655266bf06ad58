// The Slurm backend (docs/slurm.md): the points as one job array through scripts/sweep-slurm.sh,
// on the cluster the Slurm client commands find (SLURM_CONF).
#pragma once

#include "model/study/backend.h"

#include <memory>
#include <string>
#include <vector>

namespace vpsim::study {

// Zero / empty: Slurm's defaults.
struct SlurmOptions {
    std::string partition;
    unsigned time_minutes = 0, mem_mb = 0, chunk = 0, max_running = 0;
    bool no_wait = false;  // submit and return; `vpsim sweep collect OUT` gathers the results
};

// `script`: sweep-slurm.sh (installed with vpsim's data).
std::unique_ptr<Backend> make_slurm_backend(SlurmOptions o, std::string out_dir, std::string script);
// The Slurm job id recorded in OUT/slurm/job_id, "" when none.
std::string slurm_job_id(const std::string& out_dir);
// The states ("PENDING", "RUNNING", ...) of the job's array tasks still in the queue; empty
// when the job has left it. Throws StudyError when squeue cannot be run or does not answer.
std::vector<std::string> slurm_queued_states(const std::string& job);

}  // namespace vpsim::study
