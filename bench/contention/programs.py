"""The programs of bench/contention: how each is prepared (inputs made in a
work directory, kernels compiled), its command for a number of threads (and
of MPI ranks), and which time it reports.

A program's time is its own measure of its compute phase where start-up
would otherwise dominate or vary (`own`), else the wall time of the whole
command (`wall`); the table says which."""

import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = os.path.join(HERE, "workloads")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-numpy and python3-xgboost
OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"

# Debian packages each program needs (installed by run.py with apt-get).
PACKAGES = {
    "cp2k": ["cp2k"],
    "gromacs": ["gromacs"],
    "xgboost": ["python3-xgboost", "python3-numpy"],
    "numpy": ["python3-numpy", "libopenblas0-openmp"],
    "gm": ["graphicsmagick"],
    "epcc-barrier": [],
    "epcc-loop": [],
    "mpi-kernel": ["openmpi-bin", "libopenmpi-dev"],
}


def sh(cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def compile_c(src, out, mpi=False, shared=False):
    cc = "mpicc" if mpi else "gcc"
    flags = ["-O2", "-Wall", "-Wextra", "-Werror"]
    flags += ["-shared", "-fPIC"] if shared else ["-fopenmp"]
    subprocess.run([cc] + flags + ["-o", out, os.path.join(HERE, src), "-ldl"], check=True)


class Program:
    """name; mpi: runs as MPI ranks in the MPI scenario (else it is left out
    there); measure: 'own' or 'wall'."""
    mpi = False  # runs as MPI ranks in the MPI scenario
    mpi_only = False  # runs in the MPI scenario only
    measure = "own"
    preload = None

    def __init__(self, work):
        self.work = os.path.join(work, self.name)
        os.makedirs(self.work, exist_ok=True)

    def prepare(self):
        pass

    def command(self, threads):
        raise NotImplementedError

    def seconds(self, out, wall):
        """The time of this run from its output, or None if it failed."""
        m = re.search(r"SECONDS (\S+)", out)
        return float(m.group(1)) if m else None

    def extra_libs(self):
        return []


class EpccBarrier(Program):
    name = "epcc-barrier"

    def prepare(self):
        compile_c("epcc.c", os.path.join(self.work, "epcc"))

    def command(self, threads):
        return [os.path.join(self.work, "epcc"), "barrier", "500000"]


class EpccLoop(Program):
    name = "epcc-loop"

    def prepare(self):
        compile_c("epcc.c", os.path.join(self.work, "epcc"))

    def command(self, threads):
        return [os.path.join(self.work, "epcc"), "loop", "20000", "20000"]


class MpiKernel(Program):
    name = "mpi-kernel"
    mpi = mpi_only = True

    def prepare(self):
        compile_c("mpi_omp.c", os.path.join(self.work, "mpi_omp"), mpi=True)

    def command(self, threads):
        return [os.path.join(self.work, "mpi_omp"), "5000", "50000"]


class Numpy(Program):
    name = "numpy"

    def command(self, threads):
        return [PYTHON, os.path.join(WORKLOADS, "numpy_work.py"), "1000", "4"]

    def extra_libs(self):
        return [OPENBLAS_OPENMP]  # OpenBLAS's OpenMP variant, whatever the alternatives say

    def seconds(self, out, wall):
        if "openblas-openmp" not in out:
            raise RuntimeError("numpy did not map OpenBLAS's OpenMP variant: " + out)
        return super().seconds(out, wall)


class Xgboost(Program):
    name = "xgboost"

    def command(self, threads):
        return [PYTHON, os.path.join(WORKLOADS, "xgb_work.py"), "100000", "30", str(threads)]


class GraphicsMagick(Program):
    name = "gm"
    measure = "wall"

    def prepare(self):
        self.image = os.path.join(self.work, "in.miff")
        if not os.path.exists(self.image):
            sh(["gm", "convert", "-size", "3000x2000", "gradient:red-blue", "+noise", "Gaussian",
                self.image], self.work)

    def command(self, threads):
        return ["gm", "convert", self.image, "-blur", "0x2", "-resize", "150%",
                "null:"]

    def seconds(self, out, wall):
        return wall


class Gromacs(Program):
    """gmx mdrun on a water box of 884 SPC/E waters (2652 atoms); its own wall
    time (the log's 'Time: ... Wall t'), which leaves out reading the input.
    Debian's gmx needs gmx_rdtscp.so on VMs whose CPUID hides rdtscp."""
    name = "gromacs"

    MDP = """integrator = md
dt = 0.002
nsteps = 500
cutoff-scheme = Verlet
coulombtype = PME
rcoulomb = 1.0
rvdw = 1.0
nstlist = 10
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
nstcalcenergy = 100
nstenergy = 0
nstlog = 0
"""

    def prepare(self):
        self.preload = os.path.join(self.work, "gmx_rdtscp.so")
        compile_c("gmx_rdtscp.c", self.preload, shared=True)
        tpr = os.path.join(self.work, "md.tpr")
        if os.path.exists(tpr):
            return
        sh(["gmx", "-quiet", "solvate", "-cs", "spc216.gro", "-box", "3", "3", "3",
            "-o", "conf.gro"], self.work)
        with open(os.path.join(self.work, "conf.gro")) as f:
            waters = (len(f.readlines()) - 3) // 3
        with open(os.path.join(self.work, "topol.top"), "w") as f:
            f.write('#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spce.itp"\n'
                    "[ system ]\nwater\n[ molecules ]\nSOL %d\n" % waters)
        with open(os.path.join(self.work, "md.mdp"), "w") as f:
            f.write(self.MDP)
        sh(["gmx", "-quiet", "grompp", "-f", "md.mdp", "-c", "conf.gro", "-p", "topol.top",
            "-o", "md.tpr"], self.work)

    def command(self, threads):
        return ["gmx", "-quiet", "mdrun", "-s", os.path.join(self.work, "md.tpr"), "-ntmpi", "1",
                "-ntomp", str(threads), "-pin", "off", "-deffnm",
                os.path.join(self.work, "md-%d" % os.getpid())]

    def seconds(self, out, wall):
        m = re.search(r"Time:\s+\S+\s+(\S+)", out)
        return float(m.group(1)) if m else None


class Cp2k(Program):
    """cp2k.psmp: one GPW energy (PBE, SZV-MOLOPT-SR-GTH) of 8 water molecules
    in a 6.2 A box; its own total time (the CP2K line of the timing report)."""
    name = "cp2k"
    mpi = True

    def prepare(self):
        from cp2k_input import water8
        with open(os.path.join(self.work, "water8.inp"), "w") as f:
            f.write(water8())

    def command(self, threads):
        return ["cp2k.psmp", "-i", os.path.join(self.work, "water8.inp")]

    def seconds(self, out, wall):
        m = re.search(r"^ CP2K\s+1\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)", out, re.M)
        return float(m.group(1)) if m else None


ALL = [Cp2k, Gromacs, Xgboost, Numpy, GraphicsMagick, EpccBarrier, EpccLoop, MpiKernel]
NAMES = [p.name for p in ALL]


def have(name):
    exe = {"cp2k": "cp2k.psmp", "gromacs": "gmx", "gm": "gm", "mpi-kernel": "mpicc"}.get(name)
    return exe is None or shutil.which(exe) is not None
