//! nphase-pipeline: to be filled by a later issue.
