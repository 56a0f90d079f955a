//! nphase-epa: to be filled by a later issue.
