"""Small shapes deep inside large ones: the `deep_s*` oracle sets of tests/conformance.rs.

usage: python3 deep_in_large.py SEED N OUT.json
then:  oracle expect --scene OUT.json --out OUT.expected.json   (../shared/oracle)

Each of N candidate pairs puts a small shape (ball, box, cone, cylinder, capsule, hull or
rounded box; half-extent about 0.03-2) with its centre at a random point inside a large one
(cone, cylinder, box or capsule; size 10-1000), both turned at random, the large one at the
origin or up to 1e3 out; candidates with a size ratio under 25 are dropped (docs/accuracy.md's
small-on-large tolerances apply from 20). The small shape is mostly sunk far below the large
one's surface: depths of up to hundreds of times its size, where the small-on-large tolerance
still holds the answer to the small shape's precision. Python 3 standard library only; the
same SEED and N give the same file.
"""
import json, math, random, sys
seed = int(sys.argv[1]); n = int(sys.argv[2]); out = sys.argv[3]
rng = random.Random(seed)
def rot():
    v = [rng.gauss(0,1) for _ in range(3)]; a = rng.uniform(0, math.pi); l = math.sqrt(sum(x*x for x in v))
    return {"axis_angle": [x/l*a for x in v]}
def quat_rotate(aa, p):
    th = math.sqrt(sum(x*x for x in aa))
    if th == 0: return p
    k = [x/th for x in aa]; c, s = math.cos(th), math.sin(th)
    kxp = [k[1]*p[2]-k[2]*p[1], k[2]*p[0]-k[0]*p[2], k[0]*p[1]-k[1]*p[0]]
    kd = sum(k[i]*p[i] for i in range(3))
    return [p[i]*c + kxp[i]*s + k[i]*kd*(1-c) for i in range(3)]
shapes = {}; bodies = []; pairs = []
for i in range(n):
    L = 10 ** rng.uniform(1, 3)
    kind = rng.choice(["cone", "cylinder", "cuboid", "capsule"])
    h = L * rng.uniform(0.2, 1); r = L * rng.uniform(0.2, 1)
    if kind == "cuboid": big = {"type": "cuboid", "half_extents": [L*rng.uniform(0.2,1) for _ in range(3)]}
    else: big = {"type": kind, "half_height": h, "radius": r}
    # A point inside the large shape (rejection sampling in its bounding box).
    while True:
        if kind == "cuboid":
            p = [rng.uniform(-e, e) for e in big["half_extents"]]; break
        p = [rng.uniform(-r, r), rng.uniform(-h - (r if kind == "capsule" else 0), h + (r if kind == "capsule" else 0)), rng.uniform(-r, r)]
        rho = math.hypot(p[0], p[2])
        if kind == "cylinder" and rho <= r: break
        if kind == "cone" and rho <= r * (h - p[1]) / (2 * h) and abs(p[1]) <= h: break
        if kind == "capsule":
            y = max(-h, min(h, p[1]));
            if math.sqrt(p[0]**2 + (p[1]-y)**2 + p[2]**2) <= r: break
    s = 10 ** rng.uniform(-1.5, 0.3)
    sk = rng.choice(["cuboid", "cone", "cylinder", "ball", "capsule", "convex", "round"])
    if sk == "cuboid": small = {"type": "cuboid", "half_extents": [s*rng.uniform(0.1,1) for _ in range(3)]}
    elif sk == "ball": small = {"type": "ball", "radius": s}
    elif sk == "convex": small = {"type": "convex", "points": [[s*rng.uniform(-1,1) for _ in range(3)] for _ in range(8)]}
    elif sk == "round": small = {"type": "round", "border_radius": s*0.2, "inner": {"type": "cuboid", "half_extents": [s*rng.uniform(0.1,1) for _ in range(3)]}}
    else: small = {"type": sk, "half_height": s*rng.uniform(0.1,1), "radius": s*rng.uniform(0.1,1)}
    def hd(sh):
        t = sh["type"]
        if t == "cuboid": return max(sh["half_extents"])
        if t == "ball": return sh["radius"]
        if t == "convex": return max(abs(c) for p in sh["points"] for c in p)
        if t == "round": return max(sh["inner"]["half_extents"]) + sh["border_radius"]
        if t == "capsule": return sh["half_height"] + sh["radius"]
        return max(sh["half_height"], sh["radius"])
    if hd(big) < 25 * hd(small): continue
    shapes[f"big{i}"] = big; shapes[f"small{i}"] = small
    ra = rot(); pos = [rng.uniform(-1e3, 1e3) if rng.random() < 0.3 else 0.0 for _ in range(3)]
    wp = quat_rotate(ra["axis_angle"], p); wp = [wp[k] + pos[k] for k in range(3)]
    bodies.append({"id": 2*i, "shape": f"big{i}", "position": pos, "rotation": ra})
    bodies.append({"id": 2*i+1, "shape": f"small{i}", "position": wp, "rotation": rot()})
    pairs.append([2*i, 2*i+1] if rng.random() < 0.5 else [2*i+1, 2*i])
json.dump({"format": "nphase-scene/1", "prediction": 0.0, "shapes": shapes, "bodies": bodies, "pairs": pairs}, open(out, "w"))
