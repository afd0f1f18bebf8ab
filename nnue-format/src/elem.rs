//! The element types of the arrays of a net.

/// Element type of an array: in a file (with its storage) and in the fast layout
/// ([`layout::Array`](crate::layout::Array)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
}

impl Elem {
    /// The Rust type's name (`"i8"`, `"i16"`, `"i32"`), for generated code.
    pub fn rust_name(self) -> &'static str {
        match self {
            Elem::I8 => "i8",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Elem::I8 => 1,
            Elem::I16 => 2,
            Elem::I32 => 4,
        }
    }
}
