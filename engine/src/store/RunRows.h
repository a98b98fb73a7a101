#pragma once
// A `runs` row as RunRecord: the columns every query of runs selects, and reading them.

#include "entrena/store/RunStore.h"
#include "store/Sqlite.h"

namespace entrena {

inline const char* const kRunColumns =
    "id, uuid, name, status, created, COALESCE(started,''), COALESCE(ended,''), config, "
    "environment, COALESCE(parent_run,0), notes, error, best_val_accuracy, test_accuracy, "
    "final_train_loss, samples_per_s, seconds, peak_memory_bytes, final_val_loss, data, evaluation, COALESCE(experiment,0), COALESCE(trial,-1)";

inline RunRecord readRun(const sqlite::Statement& s)
{
    RunRecord r;
    r.id = s.integer(0);
    r.uuid = s.text(1);
    r.name = s.text(2);
    r.status = runStatusFromString(s.text(3));
    r.created = s.text(4);
    r.started = s.text(5);
    r.ended = s.text(6);
    r.configJson = s.text(7);
    r.environmentJson = s.text(8);
    r.parentRun = s.integer(9);
    r.notes = s.text(10);
    r.error = s.text(11);
    r.bestValAccuracy = s.optReal(12);
    r.testAccuracy = s.optReal(13);
    r.finalTrainLoss = s.optReal(14);
    r.samplesPerSec = s.optReal(15);
    r.seconds = s.optReal(16);
    r.peakMemoryBytes = s.optReal(17);
    r.finalValLoss = s.optReal(18);
    r.dataJson = s.text(19);
    r.evaluationJson = s.text(20);
    r.experiment = s.integer(21);
    r.trial = s.integer(22);
    return r;
}

} // namespace entrena
