# goengine's ladder chases: made by tools/ladder_suite.py --chases from held-out games
# (tygem-9d-2016-12); GNU Go 3.8's does_attack and the board's reader say which
# chases capture. Run: .venv/bin/python tools/regress.py tests/tactics/ladder-chases/suite.tst --engine
# ".venv/bin/python gtp_main.py --time-per-move 1 --resign-threshold 0"

# captures chase: S17 ataris the chain at Q16 (4 stones; also: -); GNU Go plays T5, the game T5
loadsgf positions.sgfs:2
2 reg_genmove w
#? [S17|T5]

# fails chase: P1 ataris the chain at O1 (1 stones; also: -); GNU Go plays P15, the game P15
loadsgf positions.sgfs:4
4 reg_genmove w
#? [!P1]

# fails chase: T15 ataris the chain at T16 (1 stones; also: -); GNU Go plays K6, the game E9
loadsgf positions.sgfs:6
6 reg_genmove w
#? [!T15]

# fails chase: N12 ataris the chain at N13 (4 stones; also: -); GNU Go plays M12, the game M12
loadsgf positions.sgfs:8
8 reg_genmove w
#? [!N12]

# fails chase: A5 ataris the chain at A6 (1 stones; also: -); GNU Go plays D11, the game B8
loadsgf positions.sgfs:10
10 reg_genmove b
#? [!A5]

# fails chase: M17 ataris the chain at M18 (1 stones; also: -); GNU Go plays B6, the game A10
loadsgf positions.sgfs:11
11 reg_genmove w
#? [!M17]

# fails chase: B6 ataris the chain at B5 (1 stones; also: -); GNU Go plays F4, the game R6
loadsgf positions.sgfs:13
13 reg_genmove w
#? [!B6]

# fails chase: C9 ataris the chain at C10 (1 stones; also: -); GNU Go plays E12, the game E12
loadsgf positions.sgfs:14
14 reg_genmove b
#? [!C9]

# fails chase: F18 ataris the chain at F19 (1 stones; also: -); GNU Go plays M14, the game C18
loadsgf positions.sgfs:15
15 reg_genmove b
#? [!F18]

# fails chase: A19 ataris the chain at A18 (2 stones; also: -); GNU Go plays F2, the game D16
loadsgf positions.sgfs:16
16 reg_genmove w
#? [!A19]

# fails chase: F8 ataris the chain at G8 (1 stones; also: -); GNU Go plays B1, the game P11
loadsgf positions.sgfs:23
23 reg_genmove b
#? [!F8]

# fails chase: T11 ataris the chain at T12 (2 stones; also: -); GNU Go plays P15, the game D18
loadsgf positions.sgfs:24
24 reg_genmove w
#? [!T11]

# fails chase: P18 ataris the chain at P17 (3 stones; also: -); GNU Go plays E7, the game D6
loadsgf positions.sgfs:25
25 reg_genmove w
#? [!P18]

# fails chase: Q2 ataris the chain at Q1 (1 stones; also: -); GNU Go plays A19, the game M9
loadsgf positions.sgfs:26
26 reg_genmove b
#? [!Q2]

# fails chase: F11 ataris the chain at F10 (1 stones; also: -); GNU Go plays F13, the game G13
loadsgf positions.sgfs:28
28 reg_genmove w
#? [!F11]

# fails chase: T10 ataris the chain at S9 (2 stones; also: -); GNU Go plays Q13, the game C3
loadsgf positions.sgfs:31
31 reg_genmove b
#? [!T10]

# fails chase: S4 ataris the chain at R4 (5 stones; also: -); GNU Go plays O10, the game O10
loadsgf positions.sgfs:32
32 reg_genmove w
#? [!S4]

# fails chase: P18 ataris the chain at O18 (1 stones; also: touches-atari); GNU Go plays P12, the game P10
loadsgf positions.sgfs:35
35 reg_genmove w
#? [!P18]

# fails chase: G8 ataris the chain at F5 (11 stones; also: captures); GNU Go plays O7, the game O7
loadsgf positions.sgfs:38
38 reg_genmove b
#? [!G8]

# fails chase: P12 ataris the chain at P11 (1 stones; also: double-atari); GNU Go plays C9, the game N11
loadsgf positions.sgfs:39
39 reg_genmove w
#? [!P12]

# fails chase: J7 ataris the chain at H5 (4 stones; also: -); GNU Go plays D8, the game E9
loadsgf positions.sgfs:40
40 reg_genmove w
#? [!J7]

# fails chase: E7 ataris the chain at D7 (1 stones; also: -); GNU Go plays C5, the game C5
loadsgf positions.sgfs:42
42 reg_genmove w
#? [!E7]

# fails chase: H15 ataris the chain at J14 (5 stones; also: -); GNU Go plays R18, the game B8
loadsgf positions.sgfs:43
43 reg_genmove b
#? [!H15]

# fails chase: D14 ataris the chain at D13 (1 stones; also: -); GNU Go plays B10, the game C15
loadsgf positions.sgfs:46
46 reg_genmove w
#? [!D14]

# fails chase: H13 ataris the chain at F13 (2 stones; also: -); GNU Go plays G15, the game N6
loadsgf positions.sgfs:49
49 reg_genmove w
#? [!H13]

# fails chase: S4 ataris the chain at S3 (1 stones; also: -); GNU Go plays P7, the game M2
loadsgf positions.sgfs:51
51 reg_genmove w
#? [!S4]

# fails chase: S13 ataris the chain at S12 (1 stones; also: -); GNU Go plays Q13, the game P14
loadsgf positions.sgfs:52
52 reg_genmove b
#? [!S13]

# fails chase: M6 ataris the chain at M7 (1 stones; also: -); GNU Go plays S11, the game D7
loadsgf positions.sgfs:54
54 reg_genmove b
#? [!M6]

# fails chase: N5 ataris the chain at O5 (1 stones; also: -); GNU Go plays O4, the game O4
loadsgf positions.sgfs:55
55 reg_genmove w
#? [!N5]

# fails chase: R13 ataris the chain at S13 (1 stones; also: -); GNU Go plays N11, the game T11
loadsgf positions.sgfs:56
56 reg_genmove w
#? [!R13]

# fails chase: D1 ataris the chain at E1 (1 stones; also: -); GNU Go plays F16, the game B2
loadsgf positions.sgfs:57
57 reg_genmove w
#? [!D1]

# fails chase: B8 ataris the chain at A8 (1 stones; also: double-atari); GNU Go plays M8, the game H5
loadsgf positions.sgfs:58
58 reg_genmove b
#? [!B8]

# fails chase: H10 ataris the chain at H11 (1 stones; also: -); GNU Go plays N9, the game O5
loadsgf positions.sgfs:59
59 reg_genmove w
#? [!H10]

# fails chase: O8 ataris the chain at N9 (3 stones; also: -); GNU Go plays P12, the game P12
loadsgf positions.sgfs:61
61 reg_genmove b
#? [!O8]

# fails chase: T4 ataris the chain at T3 (1 stones; also: -); GNU Go plays M13, the game M13
loadsgf positions.sgfs:64
64 reg_genmove b
#? [!T4]

# fails chase: N1 ataris the chain at O1 (5 stones; also: -); GNU Go plays L4, the game G16
loadsgf positions.sgfs:68
68 reg_genmove w
#? [!N1]

# fails chase: J2 ataris the chain at J3 (2 stones; also: -); GNU Go plays K2, the game K6
loadsgf positions.sgfs:69
69 reg_genmove b
#? [!J2]

# fails chase: M5 ataris the chain at L3 (4 stones; also: double-atari); GNU Go plays T5, the game R11
loadsgf positions.sgfs:74
74 reg_genmove b
#? [!M5]

# fails chase: P15 ataris the chain at Q15 (3 stones; also: -); GNU Go plays F4, the game S14
loadsgf positions.sgfs:75
75 reg_genmove w
#? [!P15]

# fails chase: B9 ataris the chain at B8 (1 stones; also: double-atari); GNU Go plays M12, the game M12
loadsgf positions.sgfs:78
78 reg_genmove b
#? [!B9]

# fails chase: E18 ataris the chain at D18 (3 stones; also: -); GNU Go plays M9, the game M9
loadsgf positions.sgfs:80
80 reg_genmove b
#? [!E18]

# fails chase: F2 ataris the chain at E2 (1 stones; also: double-atari); GNU Go plays K5, the game K5
loadsgf positions.sgfs:89
89 reg_genmove w
#? [!F2]

# fails chase: S5 ataris the chain at T3 (3 stones; also: -); GNU Go plays C13, the game D14
loadsgf positions.sgfs:90
90 reg_genmove b
#? [!S5]

# fails chase: T6 ataris the chain at T3 (4 stones; also: -); GNU Go plays E11, the game J8
loadsgf positions.sgfs:91
91 reg_genmove b
#? [!T6]

# fails chase: T16 ataris the chain at T15 (1 stones; also: -); GNU Go plays N13, the game N13
loadsgf positions.sgfs:92
92 reg_genmove w
#? [!T16]

# fails chase: O12 ataris the chain at O8 (5 stones; also: -); GNU Go plays G4, the game G4
loadsgf positions.sgfs:94
94 reg_genmove b
#? [!O12]

# fails chase: C19 ataris the chain at D19 (1 stones; also: -); GNU Go plays P17, the game P17
loadsgf positions.sgfs:96
96 reg_genmove w
#? [!C19]

# fails chase: F13 ataris the chain at E14 (2 stones; also: -); GNU Go plays N14, the game N14
loadsgf positions.sgfs:100
100 reg_genmove w
#? [!F13]

# fails chase: J12 ataris the chain at H12 (1 stones; also: -); GNU Go plays J14, the game H18
loadsgf positions.sgfs:102
102 reg_genmove w
#? [!J12]

# fails chase: K3 ataris the chain at H3 (2 stones; also: -); GNU Go plays M16, the game M16
loadsgf positions.sgfs:103
103 reg_genmove w
#? [!K3]

# fails chase: A18 ataris the chain at B18 (1 stones; also: double-atari); GNU Go plays N6, the game M8
loadsgf positions.sgfs:105
105 reg_genmove w
#? [!A18]

# fails chase: D2 ataris the chain at E2 (1 stones; also: -); GNU Go plays A4, the game G15
loadsgf positions.sgfs:106
106 reg_genmove w
#? [!D2]

# fails chase: K2 ataris the chain at K3 (2 stones; also: -); GNU Go plays R11, the game K11
loadsgf positions.sgfs:107
107 reg_genmove w
#? [!K2]

# fails chase: L14 ataris the chain at K14 (4 stones; also: -); GNU Go plays H18, the game B1
loadsgf positions.sgfs:108
108 reg_genmove b
#? [!L14]

# fails chase: O2 ataris the chain at P2 (1 stones; also: -); GNU Go plays S3, the game S3
loadsgf positions.sgfs:110
110 reg_genmove b
#? [!O2]

# fails chase: H5 ataris the chain at G5 (1 stones; also: -); GNU Go plays O9, the game F8
loadsgf positions.sgfs:111
111 reg_genmove b
#? [!H5]

# fails chase: L9 ataris the chain at L10 (2 stones; also: -); GNU Go plays O11, the game L15
loadsgf positions.sgfs:113
113 reg_genmove w
#? [!L9]

# fails chase: O17 ataris the chain at O15 (2 stones; also: -); GNU Go plays B13, the game R5
loadsgf positions.sgfs:114
114 reg_genmove w
#? [!O17]

# fails chase: N6 ataris the chain at N7 (2 stones; also: -); GNU Go plays O9, the game J11
loadsgf positions.sgfs:116
116 reg_genmove w
#? [!N6]

# fails chase: D9 ataris the chain at E7 (8 stones; also: -); GNU Go plays T13, the game T13
loadsgf positions.sgfs:119
119 reg_genmove b
#? [!D9]

# fails chase: E11 ataris the chain at D11 (1 stones; also: -); GNU Go plays M2, the game E10
loadsgf positions.sgfs:120
120 reg_genmove w
#? [!E11]

