//! `listed!`: a route family's enum together with the list of its routes (`ALL`) and their names, so no
//! route can be added without being listed (the route listing of `DO_TEST_HOOKS` and its coverage test).

/// Declares a fieldless enum, its `ALL` (every variant, in order) and `name()` (the variant's name).
macro_rules! listed {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$doc:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$doc])* $variant,)*
        }

        impl $name {
            /// Every route of the family.
            pub const ALL: &'static [Self] = &[$(Self::$variant),*];

            /// The route's name, as the route listing gives it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

pub(crate) use listed;
