//! Compiles the optional C/C++ peers from sources given by environment variables, each into a
//! static library with its shim, and tells the crate which ones it has (`cfg(peer_ccd)`,
//! `cfg(peer_bullet)`). A peer whose variable is unset is skipped; the tool then measures the
//! rest. Both are compiled with `-O3` (cc's default flags otherwise) to match Rust's release
//! `opt-level = 3`, in double precision.
//!
//! * `LIBCCD_SRC` — a checkout of https://github.com/danfis/libccd (the repository root, or its
//!   `src/`): `ccd.c mpr.c polytope.c support.c vec3.c` with `CCD_DOUBLE`.
//! * `BULLET_SRC` — a checkout of https://github.com/bulletphysics/bullet3 (the repository root,
//!   or its `src/`): `LinearMath/*.cpp` and the handful of collision files below, with
//!   `BT_USE_DOUBLE_PRECISION`.

use std::env;
use std::path::{Path, PathBuf};

/// `dir/src` if it exists and holds `probe`, else `dir` if it holds `probe`.
fn source_dir(var: &str, probe: &str) -> Option<PathBuf> {
    println!("cargo::rerun-if-env-changed={var}");
    let dir = PathBuf::from(env::var_os(var)?);
    for candidate in [dir.join("src"), dir.clone()] {
        if candidate.join(probe).exists() {
            return Some(candidate);
        }
    }
    panic!(
        "{var}={} does not contain {probe} (nor src/{probe})",
        dir.display()
    );
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(peer_ccd)");
    println!("cargo::rustc-check-cfg=cfg(peer_bullet)");
    println!("cargo::rerun-if-changed=shim");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));

    if let Some(src) = source_dir("LIBCCD_SRC", "ccd.c") {
        // libccd's build generates ccd/config.h; this one selects double precision.
        let include = out.join("ccd_include");
        std::fs::create_dir_all(include.join("ccd")).expect("writable OUT_DIR");
        std::fs::write(
            include.join("ccd/config.h"),
            "#ifndef __CCD_CONFIG_H__\n#define __CCD_CONFIG_H__\n#define CCD_DOUBLE\n#endif\n",
        )
        .expect("writable OUT_DIR");
        cc::Build::new()
            .files(["ccd.c", "mpr.c", "polytope.c", "support.c", "vec3.c"].map(|f| src.join(f)))
            .file("shim/ccd_shim.c")
            .include(&include)
            .include(&src)
            .include("shim")
            .define("CCD_STATIC_DEFINE", None)
            .opt_level(3)
            .warnings(false)
            .compile("peer_ccd");
        println!("cargo::rustc-link-lib=m");
        println!("cargo::rustc-cfg=peer_ccd");
    }

    if let Some(src) = source_dir("BULLET_SRC", "LinearMath/btScalar.h") {
        let linear_math = src.join("LinearMath");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&linear_math)
            .expect("readable LinearMath")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
            .collect();
        files.sort();
        let shapes = Path::new("BulletCollision/CollisionShapes");
        files.extend(
            [
                "btCollisionShape.cpp",
                "btConvexShape.cpp",
                "btConvexInternalShape.cpp",
                "btPolyhedralConvexShape.cpp",
                "btConvexPolyhedron.cpp",
                "btBoxShape.cpp",
                "btSphereShape.cpp",
                "btCapsuleShape.cpp",
                "btCylinderShape.cpp",
                "btConeShape.cpp",
                "btConvexHullShape.cpp",
                "btConvexPointCloudShape.cpp",
            ]
            .map(|f| src.join(shapes).join(f)),
        );
        files.push(src.join("BulletCollision/NarrowPhaseCollision/btGjkEpa2.cpp"));
        cc::Build::new()
            .cpp(true)
            .files(files)
            .file("shim/bullet_shim.cpp")
            .include(&src)
            .include("shim")
            .define("BT_USE_DOUBLE_PRECISION", None)
            .opt_level(3)
            .warnings(false)
            .flag_if_supported("-w")
            .compile("peer_bullet");
        println!("cargo::rustc-cfg=peer_bullet");
    }
}
