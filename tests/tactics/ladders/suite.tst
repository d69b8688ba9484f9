# goengine's ladder suite: made by tools/ladder_suite.py from held-out games
# (tygem-9d-2016-12); GNU Go 3.8's defend/does_defend reading says which
# ladders work. Run: .venv/bin/python tools/regress.py tests/tactics/ladders/suite.tst --engine
# ".venv/bin/python gtp_main.py --time-per-move 1 --resign-threshold 0"

# working ladder: the chain at F16 (3 stones), its liberty G15; GNU Go plays D18, the game G15
loadsgf positions.sgfs:1
1 reg_genmove b
#? [G15|D18]

# dead ladder: the chain at M2 (1 stones), its liberty M1
loadsgf positions.sgfs:3
3 reg_genmove w
#? [!M1]

# dead ladder: the chain at M2 (1 stones), its liberty M1
loadsgf positions.sgfs:6
6 reg_genmove b
#? [!M1]

# dead ladder: the chain at D12 (1 stones), its liberty D13
loadsgf positions.sgfs:7
7 reg_genmove w
#? [!D13]

# dead ladder: the chain at K16 (2 stones), its liberty L16
loadsgf positions.sgfs:10
10 reg_genmove b
#? [!L16]

# dead ladder: the chain at K10 (1 stones), its liberty L10
loadsgf positions.sgfs:12
12 reg_genmove b
#? [!L10]

# dead ladder: the chain at J6 (2 stones), its liberty K5
loadsgf positions.sgfs:14
14 reg_genmove b
#? [!K5]

# dead ladder: the chain at P3 (1 stones), its liberty O3
loadsgf positions.sgfs:16
16 reg_genmove w
#? [!O3]

# working ladder: the chain at J10 (3 stones), its liberty J9; GNU Go plays J9, the game J9
loadsgf positions.sgfs:17
17 reg_genmove b
#? [J9]

# dead ladder: the chain at S18 (1 stones), its liberty S19
loadsgf positions.sgfs:19
19 reg_genmove b
#? [!S19]

# dead ladder: the chain at D7 (2 stones), its liberty D9
loadsgf positions.sgfs:20
20 reg_genmove b
#? [!D9]

# dead ladder: the chain at S16 (1 stones), its liberty T16
loadsgf positions.sgfs:21
21 reg_genmove w
#? [!T16]

# dead ladder: the chain at D16 (5 stones), its liberty E18
loadsgf positions.sgfs:24
24 reg_genmove b
#? [!E18]

# dead ladder: the chain at E9 (1 stones), its liberty F9
loadsgf positions.sgfs:25
25 reg_genmove w
#? [!F9]

# dead ladder: the chain at Q10 (2 stones), its liberty R11
loadsgf positions.sgfs:28
28 reg_genmove b
#? [!R11]

# dead ladder: the chain at L11 (1 stones), its liberty L10
loadsgf positions.sgfs:31
31 reg_genmove b
#? [!L10]

# dead ladder: the chain at F13 (1 stones), its liberty G13
loadsgf positions.sgfs:32
32 reg_genmove w
#? [!G13]

# dead ladder: the chain at Q6 (1 stones), its liberty R6
loadsgf positions.sgfs:35
35 reg_genmove b
#? [!R6]

# working ladder: the chain at O9 (3 stones), its liberty P9; GNU Go plays P9, the game P9
loadsgf positions.sgfs:39
39 reg_genmove w
#? [P9]

# dead ladder: the chain at S3 (1 stones), its liberty T3
loadsgf positions.sgfs:40
40 reg_genmove b
#? [!T3]

# dead ladder: the chain at P7 (1 stones), its liberty P6
loadsgf positions.sgfs:41
41 reg_genmove w
#? [!P6]

# dead ladder: the chain at B16 (1 stones), its liberty A16
loadsgf positions.sgfs:42
42 reg_genmove b
#? [!A16]

# dead ladder: the chain at K12 (1 stones), its liberty K13
loadsgf positions.sgfs:43
43 reg_genmove w
#? [!K13]

# dead ladder: the chain at J14 (1 stones), its liberty J13
loadsgf positions.sgfs:45
45 reg_genmove w
#? [!J13]

# dead ladder: the chain at N6 (1 stones), its liberty N5
loadsgf positions.sgfs:47
47 reg_genmove w
#? [!N5]

# dead ladder: the chain at O8 (1 stones), its liberty O9
loadsgf positions.sgfs:48
48 reg_genmove b
#? [!O9]

# working ladder: the chain at N6 (3 stones), its liberty M6; GNU Go plays M6, the game L5
loadsgf positions.sgfs:50
50 reg_genmove b
#? [M6|L5]

# dead ladder: the chain at H2 (1 stones), its liberty H1
loadsgf positions.sgfs:53
53 reg_genmove w
#? [!H1]

# dead ladder: the chain at J7 (7 stones), its liberty M9
loadsgf positions.sgfs:54
54 reg_genmove w
#? [!M9]

# dead ladder: the chain at S11 (1 stones), its liberty T11
loadsgf positions.sgfs:58
58 reg_genmove b
#? [!T11]

# dead ladder: the chain at Q10 (2 stones), its liberty R9
loadsgf positions.sgfs:63
63 reg_genmove w
#? [!R9]

# dead ladder: the chain at M2 (1 stones), its liberty M1
loadsgf positions.sgfs:64
64 reg_genmove w
#? [!M1]

# dead ladder: the chain at M2 (1 stones), its liberty M1
loadsgf positions.sgfs:65
65 reg_genmove b
#? [!M1]

# dead ladder: the chain at D7 (1 stones), its liberty E7
loadsgf positions.sgfs:70
70 reg_genmove w
#? [!E7]

# dead ladder: the chain at N2 (1 stones), its liberty N1
loadsgf positions.sgfs:74
74 reg_genmove w
#? [!N1]

# dead ladder: the chain at S8 (1 stones), its liberty T8
loadsgf positions.sgfs:75
75 reg_genmove b
#? [!T8]

# working ladder: the chain at P9 (3 stones), its liberty P12; GNU Go plays G4, the game G4
loadsgf positions.sgfs:77
77 reg_genmove b
#? [P12|G4]

# dead ladder: the chain at F10 (2 stones), its liberty G9
loadsgf positions.sgfs:78
78 reg_genmove w
#? [!G9]

# dead ladder: the chain at S3 (1 stones), its liberty T3
loadsgf positions.sgfs:79
79 reg_genmove b
#? [!T3]

# dead ladder: the chain at H15 (1 stones), its liberty G15
loadsgf positions.sgfs:80
80 reg_genmove w
#? [!G15]

# dead ladder: the chain at A4 (2 stones), its liberty A3
loadsgf positions.sgfs:81
81 reg_genmove b
#? [!A3]

# dead ladder: the chain at R14 (2 stones), its liberty T14
loadsgf positions.sgfs:83
83 reg_genmove b
#? [!T14]

# working ladder: the chain at R5 (4 stones), its liberty S5; GNU Go plays S17, the game L11
loadsgf positions.sgfs:85
85 reg_genmove w
#? [S5|S17|L11]

# dead ladder: the chain at R9 (1 stones), its liberty R8
loadsgf positions.sgfs:86
86 reg_genmove b
#? [!R8]

# dead ladder: the chain at Q2 (1 stones), its liberty Q1
loadsgf positions.sgfs:87
87 reg_genmove b
#? [!Q1]

# dead ladder: the chain at T15 (1 stones), its liberty T14
loadsgf positions.sgfs:90
90 reg_genmove w
#? [!T14]

# dead ladder: the chain at E6 (1 stones), its liberty E7
loadsgf positions.sgfs:91
91 reg_genmove w
#? [!E7]

# dead ladder: the chain at L17 (1 stones), its liberty M17
loadsgf positions.sgfs:92
92 reg_genmove w
#? [!M17]

# dead ladder: the chain at C3 (1 stones), its liberty B3
loadsgf positions.sgfs:94
94 reg_genmove w
#? [!B3]

# dead ladder: the chain at D11 (1 stones), its liberty D12
loadsgf positions.sgfs:96
96 reg_genmove b
#? [!D12]

# dead ladder: the chain at L14 (1 stones), its liberty K14
loadsgf positions.sgfs:99
99 reg_genmove w
#? [!K14]

# dead ladder: the chain at C10 (1 stones), its liberty D10
loadsgf positions.sgfs:101
101 reg_genmove w
#? [!D10]

# dead ladder: the chain at N6 (1 stones), its liberty O6
loadsgf positions.sgfs:102
102 reg_genmove w
#? [!O6]

# dead ladder: the chain at H5 (1 stones), its liberty G5
loadsgf positions.sgfs:103
103 reg_genmove b
#? [!G5]

# dead ladder: the chain at Q11 (2 stones), its liberty P11
loadsgf positions.sgfs:105
105 reg_genmove b
#? [!P11]

# dead ladder: the chain at G7 (1 stones), its liberty H7
loadsgf positions.sgfs:106
106 reg_genmove w
#? [!H7]

# dead ladder: the chain at F7 (1 stones), its liberty F6
loadsgf positions.sgfs:107
107 reg_genmove w
#? [!F6]

# dead ladder: the chain at E11 (1 stones), its liberty E10
loadsgf positions.sgfs:109
109 reg_genmove w
#? [!E10]

# dead ladder: the chain at H3 (1 stones), its liberty H2
loadsgf positions.sgfs:110
110 reg_genmove w
#? [!H2]

# dead ladder: the chain at F14 (1 stones), its liberty G14
loadsgf positions.sgfs:111
111 reg_genmove b
#? [!G14]

# dead ladder: the chain at M3 (1 stones), its liberty N3
loadsgf positions.sgfs:112
112 reg_genmove b
#? [!N3]

# dead ladder: the chain at B11 (1 stones), its liberty A11
loadsgf positions.sgfs:113
113 reg_genmove w
#? [!A11]

# dead ladder: the chain at O5 (1 stones), its liberty N5
loadsgf positions.sgfs:114
114 reg_genmove b
#? [!N5]

# dead ladder: the chain at R9 (1 stones), its liberty S9
loadsgf positions.sgfs:115
115 reg_genmove w
#? [!S9]

# dead ladder: the chain at R17 (2 stones), its liberty R19
loadsgf positions.sgfs:118
118 reg_genmove w
#? [!R19]

# dead ladder: the chain at T3 (1 stones), its liberty T4
loadsgf positions.sgfs:120
120 reg_genmove b
#? [!T4]

