# goengine's tactical suite: made by tools/tactics_suite.py from held-out games
# (tygem-9d-2016-12); answers from GNU Go 3.8's attack/defend reading.
# Run: .venv/bin/python tools/regress.py tests/tactics/suite.tst

# tygem-9d-2016-12.sgfs.gz:4509 before move 184: capture J17 (5 stones)
loadsgf positions.sgfs:1
1 reg_genmove w
#? [M17|H19|M19]

# tygem-9d-2016-12.sgfs.gz:305 before move 136: capture M3 (4 stones)
loadsgf positions.sgfs:2
2 reg_genmove w
#? [M5]

# tygem-9d-2016-12.sgfs.gz:2794 before move 211: save Q18 (4 stones)
loadsgf positions.sgfs:3
3 reg_genmove b
#? [O19]

# tygem-9d-2016-12.sgfs.gz:1901 before move 105: capture M18 (3 stones)
loadsgf positions.sgfs:4
4 reg_genmove b
#? [L18|K19|L19]

# tygem-9d-2016-12.sgfs.gz:4628 before move 155: save E3 (3 stones)
loadsgf positions.sgfs:5
5 reg_genmove b
#? [D5]

# tygem-9d-2016-12.sgfs.gz:1050 before move 104: capture P9 (4 stones)
loadsgf positions.sgfs:6
6 reg_genmove w
#? [R8|N10]

# tygem-9d-2016-12.sgfs.gz:4451 before move 100: save Q9 (3 stones)
loadsgf positions.sgfs:7
7 reg_genmove w
#? [O9|P9|O10]

# tygem-9d-2016-12.sgfs.gz:5122 before move 140: save F6 (4 stones)
loadsgf positions.sgfs:8
8 reg_genmove w
#? [G8|J9]

# tygem-9d-2016-12.sgfs.gz:1387 before move 52: save E2 (4 stones)
loadsgf positions.sgfs:9
9 reg_genmove w
#? [D2|D6]

# tygem-9d-2016-12.sgfs.gz:3674 before move 140: save S16 (4 stones)
loadsgf positions.sgfs:10
10 reg_genmove w
#? [S15]

# tygem-9d-2016-12.sgfs.gz:851 before move 86: save J2 (5 stones)
loadsgf positions.sgfs:11
11 reg_genmove w
#? [G3|G4]

# tygem-9d-2016-12.sgfs.gz:3897 before move 124: save F5 (3 stones)
loadsgf positions.sgfs:12
12 reg_genmove w
#? [D6|F7]

# tygem-9d-2016-12.sgfs.gz:4022 before move 101: save B9 (7 stones)
loadsgf positions.sgfs:13
13 reg_genmove b
#? [A7]

# tygem-9d-2016-12.sgfs.gz:1091 before move 176: capture J4 (4 stones)
loadsgf positions.sgfs:14
14 reg_genmove w
#? [J2|H3]

# tygem-9d-2016-12.sgfs.gz:2944 before move 143: save G14 (3 stones)
loadsgf positions.sgfs:15
15 reg_genmove b
#? [H13]

# tygem-9d-2016-12.sgfs.gz:674 before move 201: capture R7 (4 stones)
loadsgf positions.sgfs:16
16 reg_genmove b
#? [S8|T8]

# tygem-9d-2016-12.sgfs.gz:4283 before move 150: save J16 (3 stones)
loadsgf positions.sgfs:17
17 reg_genmove w
#? [H15]

# tygem-9d-2016-12.sgfs.gz:4288 before move 95: save O7 (6 stones)
loadsgf positions.sgfs:18
18 reg_genmove b
#? [O6]

# tygem-9d-2016-12.sgfs.gz:102 before move 149: save C11 (10 stones)
loadsgf positions.sgfs:19
19 reg_genmove b
#? [E11]

# tygem-9d-2016-12.sgfs.gz:2749 before move 139: save F7 (10 stones)
loadsgf positions.sgfs:20
20 reg_genmove b
#? [D9]

# tygem-9d-2016-12.sgfs.gz:5013 before move 145: save R10 (4 stones)
loadsgf positions.sgfs:21
21 reg_genmove b
#? [S13]

# tygem-9d-2016-12.sgfs.gz:4760 before move 194: save R17 (3 stones)
loadsgf positions.sgfs:22
22 reg_genmove w
#? [S18|O19|P19]

# tygem-9d-2016-12.sgfs.gz:3497 before move 175: capture K14 (4 stones)
loadsgf positions.sgfs:23
23 reg_genmove b
#? [K13]

# tygem-9d-2016-12.sgfs.gz:5072 before move 219: save G14 (5 stones)
loadsgf positions.sgfs:24
24 reg_genmove b
#? [H14]

# tygem-9d-2016-12.sgfs.gz:2239 before move 156: save K14 (4 stones)
loadsgf positions.sgfs:25
25 reg_genmove w
#? [H16|J16]

# tygem-9d-2016-12.sgfs.gz:1138 before move 99: save E11 (4 stones)
loadsgf positions.sgfs:26
26 reg_genmove b
#? [E10|H11|G12]

# tygem-9d-2016-12.sgfs.gz:1345 before move 118: capture F11 (3 stones)
loadsgf positions.sgfs:27
27 reg_genmove w
#? [F10]

# tygem-9d-2016-12.sgfs.gz:2017 before move 155: capture E12 (3 stones)
loadsgf positions.sgfs:28
28 reg_genmove b
#? [E14]

# tygem-9d-2016-12.sgfs.gz:640 before move 151: save C17 (4 stones)
loadsgf positions.sgfs:29
29 reg_genmove b
#? [D19]

# tygem-9d-2016-12.sgfs.gz:4053 before move 204: save T4 (3 stones)
loadsgf positions.sgfs:30
30 reg_genmove w
#? [R5]

# tygem-9d-2016-12.sgfs.gz:2056 before move 52: capture N5 (3 stones)
loadsgf positions.sgfs:31
31 reg_genmove w
#? [O6]

# tygem-9d-2016-12.sgfs.gz:3905 before move 70: save D14 (3 stones)
loadsgf positions.sgfs:32
32 reg_genmove w
#? [E15|D16]

# tygem-9d-2016-12.sgfs.gz:4731 before move 189: save A5 (5 stones)
loadsgf positions.sgfs:33
33 reg_genmove b
#? [B7|A8]

# tygem-9d-2016-12.sgfs.gz:760 before move 165: save O7 (3 stones)
loadsgf positions.sgfs:34
34 reg_genmove b
#? [Q7]

# tygem-9d-2016-12.sgfs.gz:3596 before move 165: save C12 (4 stones)
loadsgf positions.sgfs:35
35 reg_genmove b
#? [B11]

# tygem-9d-2016-12.sgfs.gz:466 before move 40: save F2 (4 stones)
loadsgf positions.sgfs:36
36 reg_genmove w
#? [J2|K2]

# tygem-9d-2016-12.sgfs.gz:5045 before move 216: save E17 (3 stones)
loadsgf positions.sgfs:37
37 reg_genmove w
#? [E16]

# tygem-9d-2016-12.sgfs.gz:3351 before move 85: capture N17 (3 stones)
loadsgf positions.sgfs:38
38 reg_genmove b
#? [O16|M19]

# tygem-9d-2016-12.sgfs.gz:706 before move 159: save R6 (3 stones)
loadsgf positions.sgfs:39
39 reg_genmove b
#? [Q6]

# tygem-9d-2016-12.sgfs.gz:3875 before move 120: save B8 (6 stones)
loadsgf positions.sgfs:40
40 reg_genmove w
#? [A7]

# tygem-9d-2016-12.sgfs.gz:823 before move 164: capture R7 (4 stones)
loadsgf positions.sgfs:41
41 reg_genmove w
#? [Q7]

# tygem-9d-2016-12.sgfs.gz:3212 before move 130: capture G13 (3 stones)
loadsgf positions.sgfs:42
42 reg_genmove w
#? [G14]

# tygem-9d-2016-12.sgfs.gz:4785 before move 148: save B9 (3 stones)
loadsgf positions.sgfs:43
43 reg_genmove w
#? [B7|A8|A12]

# tygem-9d-2016-12.sgfs.gz:2934 before move 208: save E6 (4 stones)
loadsgf positions.sgfs:44
44 reg_genmove w
#? [D5|D6|D7]

# tygem-9d-2016-12.sgfs.gz:3961 before move 157: save K16 (4 stones)
loadsgf positions.sgfs:45
45 reg_genmove b
#? [H17|K17|N17]

# tygem-9d-2016-12.sgfs.gz:4795 before move 119: save N1 (6 stones)
loadsgf positions.sgfs:46
46 reg_genmove b
#? [Q1|R1]

# tygem-9d-2016-12.sgfs.gz:1230 before move 157: capture E5 (3 stones)
loadsgf positions.sgfs:47
47 reg_genmove b
#? [F5|G5]

# tygem-9d-2016-12.sgfs.gz:973 before move 201: capture E9 (3 stones)
loadsgf positions.sgfs:48
48 reg_genmove b
#? [F9]

# tygem-9d-2016-12.sgfs.gz:375 before move 62: save D14 (3 stones)
loadsgf positions.sgfs:49
49 reg_genmove w
#? [E14]

# tygem-9d-2016-12.sgfs.gz:245 before move 131: save F1 (4 stones)
loadsgf positions.sgfs:50
50 reg_genmove b
#? [G1|J1]

# tygem-9d-2016-12.sgfs.gz:1199 before move 141: save J2 (4 stones)
loadsgf positions.sgfs:51
51 reg_genmove b
#? [H1|L1|G2]

# tygem-9d-2016-12.sgfs.gz:5199 before move 113: save O2 (3 stones)
loadsgf positions.sgfs:52
52 reg_genmove b
#? [Q1|R1]

# tygem-9d-2016-12.sgfs.gz:3925 before move 40: save P2 (3 stones)
loadsgf positions.sgfs:53
53 reg_genmove w
#? [O2|N4]

# tygem-9d-2016-12.sgfs.gz:1015 before move 160: capture N4 (6 stones)
loadsgf positions.sgfs:54
54 reg_genmove w
#? [M7]

# tygem-9d-2016-12.sgfs.gz:2598 before move 113: save H11 (6 stones)
loadsgf positions.sgfs:55
55 reg_genmove b
#? [K9|J10|M11]

# tygem-9d-2016-12.sgfs.gz:3701 before move 194: save P8 (9 stones)
loadsgf positions.sgfs:56
56 reg_genmove w
#? [T10]

# tygem-9d-2016-12.sgfs.gz:3893 before move 177: save C8 (4 stones)
loadsgf positions.sgfs:57
57 reg_genmove b
#? [A9|A10|B11]

# tygem-9d-2016-12.sgfs.gz:4453 before move 193: capture E3 (3 stones)
loadsgf positions.sgfs:58
58 reg_genmove b
#? [F4|G4|F5]

# tygem-9d-2016-12.sgfs.gz:2977 before move 67: save C16 (3 stones)
loadsgf positions.sgfs:59
59 reg_genmove b
#? [E14|E17]

# tygem-9d-2016-12.sgfs.gz:2187 before move 164: save L2 (4 stones)
loadsgf positions.sgfs:60
60 reg_genmove w
#? [K2]

