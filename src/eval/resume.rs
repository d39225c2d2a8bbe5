//! A run's checkpoint as the machine keeps it: read back into the store
//! when the run starts (`Machine::start`, before any constant), saved when
//! due while it runs (at the machine's polls and the pruned search's
//! reports, where every stored value is proven), and when it ends.

use super::*;
use crate::checkpoint::{Checkpoint, input_hash};

impl Machine {
    /// Goes on from `checkpoint`'s file, if there is one, and saves to it
    /// from now on; how many positions it held (`None`: no file yet). An
    /// error refuses the file (or a place it cannot be saved to), and
    /// leaves the store holding part of it: the machine is to be dropped.
    pub(super) fn resume(&mut self, mut checkpoint: Checkpoint) -> Result<Option<usize>, Diag> {
        checkpoint.writable()?;
        let budget = &self.budget;
        let input = &mut self.interp_state.input;
        let max_memory = self.limits.max_memory;
        // The checkpoint was saved after the program read its input: this
        // run's input is read now, to be compared.
        let mut read = || {
            let poll = &mut || match budget.cancelled() {
                true => Err(Stop::Interrupted),
                false => Ok(()),
            };
            match input.read(poll, max_memory) {
                Ok(text) => Ok(input_hash(&text)),
                Err(stop) => Err(stop.into_diag()),
            }
        };
        let loaded = checkpoint.load(&mut self.store, &mut read)?;
        self.checkpoint = Some(checkpoint);
        Ok(loaded)
    }

    /// Saves the checkpoint now, if the run has one: how many positions,
    /// and where.
    pub fn save_checkpoint(&mut self) -> Option<Result<(usize, std::path::PathBuf), Diag>> {
        let input = self.interp_state.input.read_text().map(input_hash);
        let checkpoint = self.checkpoint.as_mut()?;
        Some(
            checkpoint
                .save(&self.store, input)
                .map(|n| (n, checkpoint.path().to_path_buf())),
        )
    }

    /// Saves the checkpoint if one is due. A save that fails is tried
    /// again when the next is due; the one at the end reports its error.
    #[cold]
    #[inline(never)]
    pub(super) fn checkpoint_if_due(&mut self) {
        let due = (self.checkpoint.as_ref()).is_some_and(|c| c.due(self.store.writes()));
        if due {
            let _ = self.save_checkpoint();
        }
    }
}
