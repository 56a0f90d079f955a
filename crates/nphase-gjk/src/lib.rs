//! nphase-gjk: to be filled by a later issue.
