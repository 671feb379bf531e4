"""The cp2k input of bench/contention: 8 water molecules on a 2x2x2 grid of a
6.2 A cubic box, orientations from a fixed seed; one PBE energy with GPW."""
import math
import random

BOX = 6.2


def waters():
    rng = random.Random(7)
    half = math.radians(104.5) / 2
    atoms = []
    for i in range(8):
        c = [((i >> k & 1) + 0.5) * BOX / 2 for k in range(3)]
        a, b = rng.uniform(0, 2 * math.pi), rng.uniform(0, math.pi)
        for s in (1, -1):
            x, y, z = math.sin(s * half), math.cos(s * half), 0.0
            x, y = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
            y, z = y * math.cos(b) - z * math.sin(b), y * math.sin(b) + z * math.cos(b)
            atoms.append(("H", c[0] + 0.957 * x, c[1] + 0.957 * y, c[2] + 0.957 * z))
        atoms.append(("O", c[0], c[1], c[2]))
    return atoms


def water8():
    coords = "\n".join("      %s %.4f %.4f %.4f" % a for a in waters())
    return """&GLOBAL
  PROJECT water8
  RUN_TYPE ENERGY
  PRINT_LEVEL LOW
&END GLOBAL
&FORCE_EVAL
  METHOD QS
  &DFT
    BASIS_SET_FILE_NAME /usr/share/cp2k/BASIS_MOLOPT
    POTENTIAL_FILE_NAME /usr/share/cp2k/GTH_POTENTIALS
    &MGRID
      CUTOFF 150
      REL_CUTOFF 30
    &END MGRID
    &SCF
      EPS_SCF 1.0E-5
      MAX_SCF 5
      SCF_GUESS ATOMIC
      &OT
        MINIMIZER DIIS
        PRECONDITIONER FULL_SINGLE_INVERSE
      &END OT
    &END SCF
    &XC
      &XC_FUNCTIONAL PBE
      &END XC_FUNCTIONAL
    &END XC
  &END DFT
  &SUBSYS
    &CELL
      ABC %.2f %.2f %.2f
    &END CELL
    &COORD
%s
    &END COORD
    &KIND H
      BASIS_SET SZV-MOLOPT-SR-GTH
      POTENTIAL GTH-PBE-q1
    &END KIND
    &KIND O
      BASIS_SET SZV-MOLOPT-SR-GTH
      POTENTIAL GTH-PBE-q6
    &END KIND
  &END SUBSYS
&END FORCE_EVAL
""" % (BOX, BOX, BOX, coords)
