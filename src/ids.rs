//! The ids of a checked program's parts: expressions, games, constants,
//! functions and variables' slots, each a newtype over its place in a
//! table. Below the IR, so that the store can name a game without it.

/// Index of an expression in [`Program::exprs`](crate::ir::Program::exprs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

impl ExprId {
    /// Its place in [`Program::exprs`](crate::ir::Program::exprs) (and in tables kept beside it).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
/// Index of a game in [`Program::games`](crate::ir::Program::games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u32);

impl GameId {
    /// Its place in [`Program::games`](crate::ir::Program::games) (and in tables kept beside it).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
/// Index of a constant in [`Program::consts`](crate::ir::Program::consts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);
/// Index of a function in [`Program::funs`](crate::ir::Program::funs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunId(pub u32);

impl ConstId {
    /// Its place in [`Program::consts`](crate::ir::Program::consts) (and in tables kept beside it).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl FunId {
    /// Its place in [`Program::funs`](crate::ir::Program::funs) (and in tables kept beside it).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
/// Index of a variable in an evaluation frame (a frame's size, a count of
/// slots, is a plain `u32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(pub u32);

impl Slot {
    /// Its place in a frame.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
