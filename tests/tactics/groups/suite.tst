# goengine's tactical suite: made by tools/tactics_suite.py from held-out games (tygem-9d-2016-12);
# answers from GNU Go 3.8's owl_attack/owl_defend reading.
# Run: .venv/bin/python tools/regress.py tests/tactics/groups/suite.tst

# tygem-9d-2016-12.sgfs.gz:4186 before move 68: live P6 (6 stones)
loadsgf positions.sgfs:1
1 reg_genmove w
#? [R3]

# tygem-9d-2016-12.sgfs.gz:1471 before move 198: kill O19 (19 stones)
loadsgf positions.sgfs:2
2 reg_genmove w
#? [N15]

# tygem-9d-2016-12.sgfs.gz:2746 before move 127: kill R16 (20 stones)
loadsgf positions.sgfs:3
3 reg_genmove b
#? [O18|Q19]

# tygem-9d-2016-12.sgfs.gz:1421 before move 98: kill L17 (6 stones)
loadsgf positions.sgfs:4
4 reg_genmove w
#? [K13|L15]

# tygem-9d-2016-12.sgfs.gz:225 before move 75: kill O10 (6 stones)
loadsgf positions.sgfs:5
5 reg_genmove b
#? [N11|N12|N13]

# tygem-9d-2016-12.sgfs.gz:2891 before move 92: kill L17 (9 stones)
loadsgf positions.sgfs:6
6 reg_genmove w
#? [N17]

# tygem-9d-2016-12.sgfs.gz:3506 before move 143: live F10 (13 stones)
loadsgf positions.sgfs:7
7 reg_genmove b
#? [K6|J7|L10]

# tygem-9d-2016-12.sgfs.gz:5013 before move 145: kill N18 (6 stones)
loadsgf positions.sgfs:8
8 reg_genmove b
#? [N17|L19|O19]

# tygem-9d-2016-12.sgfs.gz:1138 before move 99: kill K18 (9 stones)
loadsgf positions.sgfs:9
9 reg_genmove b
#? [M19]

# tygem-9d-2016-12.sgfs.gz:3334 before move 118: kill K15 (18 stones)
loadsgf positions.sgfs:10
10 reg_genmove w
#? [N10]

# tygem-9d-2016-12.sgfs.gz:1312 before move 206: kill K10 (12 stones)
loadsgf positions.sgfs:11
11 reg_genmove w
#? [L6]

# tygem-9d-2016-12.sgfs.gz:4731 before move 189: kill C5 (20 stones)
loadsgf positions.sgfs:12
12 reg_genmove b
#? [B7|A8]

# tygem-9d-2016-12.sgfs.gz:100 before move 69: kill M12 (14 stones)
loadsgf positions.sgfs:13
13 reg_genmove b
#? [G12]

# tygem-9d-2016-12.sgfs.gz:3638 before move 40: kill S7 (6 stones)
loadsgf positions.sgfs:14
14 reg_genmove w
#? [S8]

# tygem-9d-2016-12.sgfs.gz:4644 before move 67: live Q11 (6 stones)
loadsgf positions.sgfs:15
15 reg_genmove b
#? [P6|O9]

# tygem-9d-2016-12.sgfs.gz:2393 before move 163: kill N18 (20 stones)
loadsgf positions.sgfs:16
16 reg_genmove b
#? [T12|N15|N16]

# tygem-9d-2016-12.sgfs.gz:1313 before move 86: kill R16 (6 stones)
loadsgf positions.sgfs:17
17 reg_genmove w
#? [R15]

# tygem-9d-2016-12.sgfs.gz:1909 before move 91: kill P8 (10 stones)
loadsgf positions.sgfs:18
18 reg_genmove b
#? [R2]

# tygem-9d-2016-12.sgfs.gz:304 before move 216: live M19 (8 stones)
loadsgf positions.sgfs:19
19 reg_genmove w
#? [L14]

# tygem-9d-2016-12.sgfs.gz:4786 before move 107: kill E11 (7 stones)
loadsgf positions.sgfs:20
20 reg_genmove b
#? [H11|G12]

# tygem-9d-2016-12.sgfs.gz:3729 before move 183: live S6 (9 stones)
loadsgf positions.sgfs:21
21 reg_genmove b
#? [T4|T7]

# tygem-9d-2016-12.sgfs.gz:2331 before move 113: kill L19 (14 stones)
loadsgf positions.sgfs:22
22 reg_genmove b
#? [M18|O19|P19]

# tygem-9d-2016-12.sgfs.gz:4915 before move 63: kill E5 (6 stones)
loadsgf positions.sgfs:23
23 reg_genmove b
#? [F1]

# tygem-9d-2016-12.sgfs.gz:2561 before move 166: live C19 (11 stones)
loadsgf positions.sgfs:24
24 reg_genmove w
#? [C17]

# tygem-9d-2016-12.sgfs.gz:4956 before move 137: kill E13 (11 stones)
loadsgf positions.sgfs:25
25 reg_genmove b
#? [D13]

# tygem-9d-2016-12.sgfs.gz:4799 before move 77: kill Q7 (6 stones)
loadsgf positions.sgfs:26
26 reg_genmove b
#? [T4]

# tygem-9d-2016-12.sgfs.gz:2838 before move 201: kill Q18 (9 stones)
loadsgf positions.sgfs:27
27 reg_genmove b
#? [Q19]

# tygem-9d-2016-12.sgfs.gz:1666 before move 91: live F7 (12 stones)
loadsgf positions.sgfs:28
28 reg_genmove b
#? [F1]

# tygem-9d-2016-12.sgfs.gz:3383 before move 113: kill P6 (12 stones)
loadsgf positions.sgfs:29
29 reg_genmove b
#? [T4]

