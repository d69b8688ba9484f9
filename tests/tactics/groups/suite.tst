# goengine's tactical suite: made by tools/tactics_suite.py from held-out games (tygem-9d-2016-12);
# answers from GNU Go 3.8's owl_attack/owl_defend reading.
# Run: .venv/bin/python tools/regress.py tests/tactics/groups/suite.tst

# tygem-9d-2016-12.sgfs.gz:4186 before move 68: live P6 (6 stones); the game played M2
loadsgf positions.sgfs:1
1 reg_genmove w
#? [R3]

# tygem-9d-2016-12.sgfs.gz:1471 before move 198: kill O19 (19 stones); the game played N15
loadsgf positions.sgfs:2
2 reg_genmove w
#? [N15]

# tygem-9d-2016-12.sgfs.gz:2746 before move 127: kill R16 (20 stones); the game played O18
loadsgf positions.sgfs:3
3 reg_genmove b
#? [O18|Q19]

# tygem-9d-2016-12.sgfs.gz:1421 before move 98: kill L17 (6 stones); the game played B13
loadsgf positions.sgfs:4
4 reg_genmove w
#? [K13|L15]

# tygem-9d-2016-12.sgfs.gz:225 before move 75: kill O10 (6 stones); the game played P11
loadsgf positions.sgfs:5
5 reg_genmove b
#? [N11|N12|N13]

# tygem-9d-2016-12.sgfs.gz:2891 before move 92: kill L17 (9 stones); the game played O15
loadsgf positions.sgfs:6
6 reg_genmove w
#? [N17]

# tygem-9d-2016-12.sgfs.gz:3506 before move 143: live F10 (13 stones); the game played L10
loadsgf positions.sgfs:7
7 reg_genmove b
#? [K6|J7|L10]

# tygem-9d-2016-12.sgfs.gz:5013 before move 145: kill N18 (6 stones); the game played B7
loadsgf positions.sgfs:8
8 reg_genmove b
#? [N17|L19|O19]

# tygem-9d-2016-12.sgfs.gz:1138 before move 99: kill K18 (9 stones); the game played H11
loadsgf positions.sgfs:9
9 reg_genmove b
#? [M19]

# tygem-9d-2016-12.sgfs.gz:3334 before move 118: kill K15 (18 stones); the game played N10
loadsgf positions.sgfs:10
10 reg_genmove w
#? [N10]

# tygem-9d-2016-12.sgfs.gz:1312 before move 206: kill K10 (12 stones); the game played L6
loadsgf positions.sgfs:11
11 reg_genmove w
#? [L6]

# tygem-9d-2016-12.sgfs.gz:4731 before move 189: kill C5 (20 stones); the game played A8
loadsgf positions.sgfs:12
12 reg_genmove b
#? [B7|A8]

# tygem-9d-2016-12.sgfs.gz:100 before move 69: kill M12 (14 stones); the game played C13
loadsgf positions.sgfs:13
13 reg_genmove b
#? [G12]

# tygem-9d-2016-12.sgfs.gz:3638 before move 40: kill S7 (6 stones); the game played S8
loadsgf positions.sgfs:14
14 reg_genmove w
#? [S8]

# tygem-9d-2016-12.sgfs.gz:4644 before move 67: live Q11 (6 stones); the game played O9
loadsgf positions.sgfs:15
15 reg_genmove b
#? [P6|O9]

# tygem-9d-2016-12.sgfs.gz:2393 before move 163: kill N18 (20 stones); the game played Q16
loadsgf positions.sgfs:16
16 reg_genmove b
#? [T12|N15|N16]

# tygem-9d-2016-12.sgfs.gz:1313 before move 86: kill R16 (6 stones); the game played S10
loadsgf positions.sgfs:17
17 reg_genmove w
#? [R15]

# tygem-9d-2016-12.sgfs.gz:1909 before move 91: kill P8 (10 stones); the game played L10
loadsgf positions.sgfs:18
18 reg_genmove b
#? [R2]

# tygem-9d-2016-12.sgfs.gz:304 before move 216: live M19 (8 stones); the game played J13
loadsgf positions.sgfs:19
19 reg_genmove w
#? [L14]

# tygem-9d-2016-12.sgfs.gz:4786 before move 107: kill E11 (7 stones); the game played H11
loadsgf positions.sgfs:20
20 reg_genmove b
#? [H11|G12]

# tygem-9d-2016-12.sgfs.gz:3729 before move 183: live S6 (9 stones); the game played R1
loadsgf positions.sgfs:21
21 reg_genmove b
#? [T4|T7]

# tygem-9d-2016-12.sgfs.gz:2331 before move 113: kill L19 (14 stones); the game played L15
loadsgf positions.sgfs:22
22 reg_genmove b
#? [M18|O19|P19]

# tygem-9d-2016-12.sgfs.gz:4915 before move 63: kill E5 (6 stones); the game played A1
loadsgf positions.sgfs:23
23 reg_genmove b
#? [F1]

# tygem-9d-2016-12.sgfs.gz:2561 before move 166: live C19 (11 stones); the game played A13
loadsgf positions.sgfs:24
24 reg_genmove w
#? [C17]

# tygem-9d-2016-12.sgfs.gz:4956 before move 137: kill E13 (11 stones); the game played D13
loadsgf positions.sgfs:25
25 reg_genmove b
#? [D13]

# tygem-9d-2016-12.sgfs.gz:4799 before move 77: kill Q7 (6 stones); the game played T3
loadsgf positions.sgfs:26
26 reg_genmove b
#? [T4]

# tygem-9d-2016-12.sgfs.gz:2838 before move 201: kill Q18 (9 stones); the game played P9
loadsgf positions.sgfs:27
27 reg_genmove b
#? [Q19]

# tygem-9d-2016-12.sgfs.gz:1666 before move 91: live F7 (12 stones); the game played F1
loadsgf positions.sgfs:28
28 reg_genmove b
#? [F1]

# tygem-9d-2016-12.sgfs.gz:3383 before move 113: kill P6 (12 stones); the game played T9
loadsgf positions.sgfs:29
29 reg_genmove b
#? [T4]

# tygem-9d-2016-12.sgfs.gz:4628 before move 56: kill G9 (6 stones); the game played J7
loadsgf positions.sgfs:30
30 reg_genmove w
#? [J7]

# tygem-9d-2016-12.sgfs.gz:371 before move 94: live P11 (11 stones); the game played M11
loadsgf positions.sgfs:31
31 reg_genmove w
#? [K9|K10|M11]

# tygem-9d-2016-12.sgfs.gz:4343 before move 110: kill F6 (12 stones); the game played M9
loadsgf positions.sgfs:32
32 reg_genmove w
#? [C1|E1|G1]

# tygem-9d-2016-12.sgfs.gz:289 before move 60: kill B13 (7 stones); the game played H12
loadsgf positions.sgfs:33
33 reg_genmove w
#? [F9|F13]

# tygem-9d-2016-12.sgfs.gz:4240 before move 193: kill G19 (38 stones); the game played R16
loadsgf positions.sgfs:34
34 reg_genmove b
#? [R16]

# tygem-9d-2016-12.sgfs.gz:28 before move 196: kill Q17 (6 stones); the game played G11
loadsgf positions.sgfs:35
35 reg_genmove w
#? [S17|R18]

# tygem-9d-2016-12.sgfs.gz:3869 before move 124: kill P19 (11 stones); the game played M15
loadsgf positions.sgfs:36
36 reg_genmove w
#? [M17|M18]

# tygem-9d-2016-12.sgfs.gz:3706 before move 84: kill F18 (9 stones); the game played C11
loadsgf positions.sgfs:37
37 reg_genmove w
#? [D19|G19]

# tygem-9d-2016-12.sgfs.gz:2445 before move 147: kill F10 (19 stones); the game played Q12
loadsgf positions.sgfs:38
38 reg_genmove b
#? [H7]

# tygem-9d-2016-12.sgfs.gz:2814 before move 157: kill M18 (9 stones); the game played M2
loadsgf positions.sgfs:39
39 reg_genmove b
#? [J18|N18]

# tygem-9d-2016-12.sgfs.gz:1785 before move 121: kill K12 (7 stones); the game played N9
loadsgf positions.sgfs:40
40 reg_genmove b
#? [J9|J10|K10]

# tygem-9d-2016-12.sgfs.gz:2045 before move 95: kill D14 (6 stones); the game played L11
loadsgf positions.sgfs:41
41 reg_genmove b
#? [B10]

# tygem-9d-2016-12.sgfs.gz:910 before move 74: kill O6 (14 stones); the game played O12
loadsgf positions.sgfs:42
42 reg_genmove w
#? [M7]

# tygem-9d-2016-12.sgfs.gz:4795 before move 119: live N3 (6 stones); the game played Q1
loadsgf positions.sgfs:43
43 reg_genmove b
#? [L1|Q1|K2]

# tygem-9d-2016-12.sgfs.gz:1773 before move 50: kill E12 (10 stones); the game played F10
loadsgf positions.sgfs:44
44 reg_genmove w
#? [F10|G10]

# tygem-9d-2016-12.sgfs.gz:4877 before move 59: kill R12 (8 stones); the game played R18
loadsgf positions.sgfs:45
45 reg_genmove b
#? [L8|M8]

# tygem-9d-2016-12.sgfs.gz:1648 before move 75: kill B10 (6 stones); the game played C11
loadsgf positions.sgfs:46
46 reg_genmove b
#? [C11]

# tygem-9d-2016-12.sgfs.gz:245 before move 131: kill K5 (17 stones); the game played M6
loadsgf positions.sgfs:47
47 reg_genmove b
#? [M6|K7|L7]

# tygem-9d-2016-12.sgfs.gz:3695 before move 108: kill O13 (16 stones); the game played T7
loadsgf positions.sgfs:48
48 reg_genmove w
#? [S4|T5]

# tygem-9d-2016-12.sgfs.gz:5074 before move 87: kill L10 (6 stones); the game played L2
loadsgf positions.sgfs:49
49 reg_genmove b
#? [M11]

# tygem-9d-2016-12.sgfs.gz:4847 before move 116: live O12 (6 stones); the game played S3
loadsgf positions.sgfs:50
50 reg_genmove w
#? [N7|M11]

# tygem-9d-2016-12.sgfs.gz:4250 before move 77: live D7 (9 stones); the game played A5
loadsgf positions.sgfs:51
51 reg_genmove b
#? [A5]

# tygem-9d-2016-12.sgfs.gz:641 before move 177: kill K16 (7 stones); the game played M16
loadsgf positions.sgfs:52
52 reg_genmove b
#? [K12]

# tygem-9d-2016-12.sgfs.gz:2598 before move 113: kill D6 (13 stones); the game played M11
loadsgf positions.sgfs:53
53 reg_genmove b
#? [H3|E4|E5]

# tygem-9d-2016-12.sgfs.gz:4953 before move 144: live L19 (7 stones); the game played H18
loadsgf positions.sgfs:54
54 reg_genmove w
#? [H17|H18|J19]

# tygem-9d-2016-12.sgfs.gz:4692 before move 122: live R12 (9 stones); the game played S9
loadsgf positions.sgfs:55
55 reg_genmove w
#? [S9]

# tygem-9d-2016-12.sgfs.gz:119 before move 131: kill F18 (18 stones); the game played C12
loadsgf positions.sgfs:56
56 reg_genmove b
#? [M15|F19|H19]

# tygem-9d-2016-12.sgfs.gz:314 before move 163: live R5 (6 stones); the game played J3
loadsgf positions.sgfs:57
57 reg_genmove b
#? [N5]

# tygem-9d-2016-12.sgfs.gz:4156 before move 132: kill N14 (22 stones); the game played K8
loadsgf positions.sgfs:58
58 reg_genmove w
#? [K8]

# tygem-9d-2016-12.sgfs.gz:1170 before move 93: kill G4 (11 stones); the game played K7
loadsgf positions.sgfs:59
59 reg_genmove b
#? [J7|K7|K8]

# tygem-9d-2016-12.sgfs.gz:1509 before move 176: kill B18 (9 stones); the game played E19
loadsgf positions.sgfs:60
60 reg_genmove w
#? [E19]

# tygem-9d-2016-12.sgfs.gz:1336 before move 99: live D16 (16 stones); the game played L4
loadsgf positions.sgfs:61
61 reg_genmove b
#? [A13|E13|H17]

# tygem-9d-2016-12.sgfs.gz:5043 before move 126: kill G5 (9 stones); the game played F1
loadsgf positions.sgfs:62
62 reg_genmove w
#? [E1|F1|G1]

# tygem-9d-2016-12.sgfs.gz:179 before move 74: kill B8 (6 stones); the game played E12
loadsgf positions.sgfs:63
63 reg_genmove w
#? [D7]

# tygem-9d-2016-12.sgfs.gz:2734 before move 95: kill N18 (18 stones); the game played J19
loadsgf positions.sgfs:64
64 reg_genmove b
#? [J19|N19]

# tygem-9d-2016-12.sgfs.gz:276 before move 151: kill J11 (20 stones); the game played K14
loadsgf positions.sgfs:65
65 reg_genmove b
#? [J13]

# tygem-9d-2016-12.sgfs.gz:3669 before move 78: live N12 (7 stones); the game played P9
loadsgf positions.sgfs:66
66 reg_genmove w
#? [P9|Q9|Q10]

# tygem-9d-2016-12.sgfs.gz:2966 before move 165: kill R7 (11 stones); the game played E17
loadsgf positions.sgfs:67
67 reg_genmove b
#? [O1]

# tygem-9d-2016-12.sgfs.gz:3802 before move 67: kill B6 (8 stones); the game played G8
loadsgf positions.sgfs:68
68 reg_genmove b
#? [B2|C2|B3]

# tygem-9d-2016-12.sgfs.gz:4602 before move 74: kill E14 (6 stones); the game played K5
loadsgf positions.sgfs:69
69 reg_genmove w
#? [H13]

# tygem-9d-2016-12.sgfs.gz:2290 before move 123: live E8 (6 stones); the game played C7
loadsgf positions.sgfs:70
70 reg_genmove b
#? [E4|C7]

# tygem-9d-2016-12.sgfs.gz:4574 before move 191: kill J13 (28 stones); the game played L1
loadsgf positions.sgfs:71
71 reg_genmove b
#? [L1]

# tygem-9d-2016-12.sgfs.gz:306 before move 71: live E4 (6 stones); the game played F2
loadsgf positions.sgfs:72
72 reg_genmove b
#? [G1|B2]

# tygem-9d-2016-12.sgfs.gz:4371 before move 113: kill D9 (16 stones); the game played N15
loadsgf positions.sgfs:73
73 reg_genmove b
#? [G2|H2|H3]

# tygem-9d-2016-12.sgfs.gz:2046 before move 45: live E18 (8 stones); the game played F14
loadsgf positions.sgfs:74
74 reg_genmove b
#? [E14|F14]

# tygem-9d-2016-12.sgfs.gz:169 before move 83: live P16 (6 stones); the game played J10
loadsgf positions.sgfs:75
75 reg_genmove b
#? [T14]

# tygem-9d-2016-12.sgfs.gz:4590 before move 111: kill N17 (9 stones); the game played P6
loadsgf positions.sgfs:76
76 reg_genmove b
#? [O13|P13|P14]

# tygem-9d-2016-12.sgfs.gz:4377 before move 152: kill D6 (10 stones); the game played K7
loadsgf positions.sgfs:77
77 reg_genmove w
#? [G2|H2|D7]

# tygem-9d-2016-12.sgfs.gz:2363 before move 115: kill B12 (9 stones); the game played S4
loadsgf positions.sgfs:78
78 reg_genmove b
#? [A6|B6|C6]

# tygem-9d-2016-12.sgfs.gz:3175 before move 112: kill F13 (9 stones); the game played F10
loadsgf positions.sgfs:79
79 reg_genmove w
#? [J9|H10]

# tygem-9d-2016-12.sgfs.gz:4143 before move 124: kill J4 (6 stones); the game played L6
loadsgf positions.sgfs:80
80 reg_genmove w
#? [L5|L6]

# tygem-9d-2016-12.sgfs.gz:1981 before move 116: live D15 (11 stones); the game played F14
loadsgf positions.sgfs:81
81 reg_genmove w
#? [E12|A16|B17]

# tygem-9d-2016-12.sgfs.gz:4195 before move 75: kill R16 (6 stones); the game played S13
loadsgf positions.sgfs:82
82 reg_genmove b
#? [S13|S14|S15]

# tygem-9d-2016-12.sgfs.gz:3328 before move 95: kill P16 (15 stones); the game played Q7
loadsgf positions.sgfs:83
83 reg_genmove b
#? [S10|R13]

# tygem-9d-2016-12.sgfs.gz:4758 before move 162: kill L6 (14 stones); the game played B11
loadsgf positions.sgfs:84
84 reg_genmove w
#? [N2]

# tygem-9d-2016-12.sgfs.gz:1711 before move 77: kill O19 (10 stones); the game played S15
loadsgf positions.sgfs:85
85 reg_genmove b
#? [S15|T15|R19]

# tygem-9d-2016-12.sgfs.gz:155 before move 106: kill J6 (19 stones); the game played G5
loadsgf positions.sgfs:86
86 reg_genmove w
#? [G5]

# tygem-9d-2016-12.sgfs.gz:1790 before move 58: live B19 (9 stones); the game played C14
loadsgf positions.sgfs:87
87 reg_genmove w
#? [C14]

# tygem-9d-2016-12.sgfs.gz:382 before move 153: kill P14 (16 stones); the game played P5
loadsgf positions.sgfs:88
88 reg_genmove b
#? [P7]

# tygem-9d-2016-12.sgfs.gz:1948 before move 129: kill D16 (14 stones); the game played H12
loadsgf positions.sgfs:89
89 reg_genmove b
#? [G12|H12|F18]

# tygem-9d-2016-12.sgfs.gz:468 before move 188: kill P8 (11 stones); the game played L15
loadsgf positions.sgfs:90
90 reg_genmove w
#? [N6]

# tygem-9d-2016-12.sgfs.gz:2439 before move 144: kill N6 (14 stones); the game played C18
loadsgf positions.sgfs:91
91 reg_genmove w
#? [L4|H6]

# tygem-9d-2016-12.sgfs.gz:4167 before move 124: kill H18 (14 stones); the game played P10
loadsgf positions.sgfs:92
92 reg_genmove w
#? [J12|J13]

# tygem-9d-2016-12.sgfs.gz:3420 before move 94: kill N15 (12 stones); the game played M7
loadsgf positions.sgfs:93
93 reg_genmove w
#? [M18]

# tygem-9d-2016-12.sgfs.gz:3223 before move 117: live J4 (9 stones); the game played N3
loadsgf positions.sgfs:94
94 reg_genmove b
#? [H1|J1|M2]

# tygem-9d-2016-12.sgfs.gz:4074 before move 179: live C14 (10 stones); the game played A11
loadsgf positions.sgfs:95
95 reg_genmove b
#? [A11|A17]

# tygem-9d-2016-12.sgfs.gz:281 before move 160: live S13 (8 stones); the game played M13
loadsgf positions.sgfs:96
96 reg_genmove w
#? [M13]

# tygem-9d-2016-12.sgfs.gz:3058 before move 174: kill M11 (9 stones); the game played L16
loadsgf positions.sgfs:97
97 reg_genmove w
#? [N10|O11|O12]

# tygem-9d-2016-12.sgfs.gz:4704 before move 110: kill D8 (21 stones); the game played B1
loadsgf positions.sgfs:98
98 reg_genmove w
#? [B1]

# tygem-9d-2016-12.sgfs.gz:768 before move 110: kill C9 (14 stones); the game played A7
loadsgf positions.sgfs:99
99 reg_genmove w
#? [A7]

# tygem-9d-2016-12.sgfs.gz:1636 before move 108: live E11 (13 stones); the game played L8
loadsgf positions.sgfs:100
100 reg_genmove w
#? [F5|E6]

# tygem-9d-2016-12.sgfs.gz:3155 before move 109: kill C10 (7 stones); the game played H19
loadsgf positions.sgfs:101
101 reg_genmove b
#? [A4]

# tygem-9d-2016-12.sgfs.gz:4864 before move 113: kill N12 (17 stones); the game played O7
loadsgf positions.sgfs:102
102 reg_genmove b
#? [O7|O9|P10]

# tygem-9d-2016-12.sgfs.gz:4171 before move 106: kill N10 (6 stones); the game played S9
loadsgf positions.sgfs:103
103 reg_genmove w
#? [K6|L7]

# tygem-9d-2016-12.sgfs.gz:1360 before move 114: live P16 (6 stones); the game played N16
loadsgf positions.sgfs:104
104 reg_genmove w
#? [N16|Q18]

# tygem-9d-2016-12.sgfs.gz:934 before move 137: live G5 (9 stones); the game played K18
loadsgf positions.sgfs:105
105 reg_genmove b
#? [E1|F1]

# tygem-9d-2016-12.sgfs.gz:2067 before move 97: kill H8 (17 stones); the game played B16
loadsgf positions.sgfs:106
106 reg_genmove b
#? [O6|P7]

# tygem-9d-2016-12.sgfs.gz:5122 before move 117: kill J13 (20 stones); the game played N16
loadsgf positions.sgfs:107
107 reg_genmove b
#? [O18]

# tygem-9d-2016-12.sgfs.gz:2509 before move 76: kill G12 (8 stones); the game played M4
loadsgf positions.sgfs:108
108 reg_genmove w
#? [E11]

# tygem-9d-2016-12.sgfs.gz:4145 before move 184: live P7 (6 stones); the game played Q14
loadsgf positions.sgfs:109
109 reg_genmove w
#? [R3|Q4]

# tygem-9d-2016-12.sgfs.gz:4863 before move 121: kill P16 (8 stones); the game played O16
loadsgf positions.sgfs:110
110 reg_genmove b
#? [O16|O18]

# tygem-9d-2016-12.sgfs.gz:2332 before move 121: kill Q19 (8 stones); the game played O17
loadsgf positions.sgfs:111
111 reg_genmove b
#? [O17]

# tygem-9d-2016-12.sgfs.gz:35 before move 95: kill G18 (16 stones); the game played E9
loadsgf positions.sgfs:112
112 reg_genmove b
#? [E8|F8|E9]

# tygem-9d-2016-12.sgfs.gz:4112 before move 149: kill N5 (7 stones); the game played G14
loadsgf positions.sgfs:113
113 reg_genmove b
#? [S2|S3|T4]

# tygem-9d-2016-12.sgfs.gz:2905 before move 171: live L15 (15 stones); the game played L16
loadsgf positions.sgfs:114
114 reg_genmove b
#? [L16]

# tygem-9d-2016-12.sgfs.gz:1704 before move 152: kill D3 (7 stones); the game played F12
loadsgf positions.sgfs:115
115 reg_genmove w
#? [G1|G2|H2]

# tygem-9d-2016-12.sgfs.gz:3401 before move 94: kill D10 (11 stones); the game played K3
loadsgf positions.sgfs:116
116 reg_genmove w
#? [A11|D12]

# tygem-9d-2016-12.sgfs.gz:4341 before move 106: kill K10 (8 stones); the game played H12
loadsgf positions.sgfs:117
117 reg_genmove w
#? [H12]

# tygem-9d-2016-12.sgfs.gz:212 before move 92: kill L8 (14 stones); the game played E7
loadsgf positions.sgfs:118
118 reg_genmove w
#? [J2|K3|J5]

# tygem-9d-2016-12.sgfs.gz:2745 before move 149: kill O8 (15 stones); the game played P4
loadsgf positions.sgfs:119
119 reg_genmove b
#? [P4]

# tygem-9d-2016-12.sgfs.gz:5066 before move 137: kill P4 (6 stones); the game played L2
loadsgf positions.sgfs:120
120 reg_genmove b
#? [O1]

# tygem-9d-2016-12.sgfs.gz:376 before move 178: kill E4 (14 stones); the game played N15
loadsgf positions.sgfs:121
121 reg_genmove w
#? [G1|J2]

# tygem-9d-2016-12.sgfs.gz:583 before move 123: kill N6 (13 stones); the game played R3
loadsgf positions.sgfs:122
122 reg_genmove b
#? [R3]

# tygem-9d-2016-12.sgfs.gz:2858 before move 107: kill D4 (15 stones); the game played E11
loadsgf positions.sgfs:123
123 reg_genmove b
#? [F1|H1|J1]

# tygem-9d-2016-12.sgfs.gz:4978 before move 133: kill M13 (7 stones); the game played M16
loadsgf positions.sgfs:124
124 reg_genmove b
#? [L11]

# tygem-9d-2016-12.sgfs.gz:3449 before move 50: kill E18 (6 stones); the game played B18
loadsgf positions.sgfs:125
125 reg_genmove w
#? [B18|D19]

# tygem-9d-2016-12.sgfs.gz:1293 before move 75: kill L17 (9 stones); the game played O14
loadsgf positions.sgfs:126
126 reg_genmove b
#? [N15|O15]

# tygem-9d-2016-12.sgfs.gz:3895 before move 67: kill G18 (14 stones); the game played R9
loadsgf positions.sgfs:127
127 reg_genmove b
#? [A14]

# tygem-9d-2016-12.sgfs.gz:3278 before move 188: live D16 (15 stones); the game played L19
loadsgf positions.sgfs:128
128 reg_genmove w
#? [F18]

# tygem-9d-2016-12.sgfs.gz:2989 before move 54: live R12 (6 stones); the game played T10
loadsgf positions.sgfs:129
129 reg_genmove w
#? [T9|T10|R15]

# tygem-9d-2016-12.sgfs.gz:3202 before move 185: live E16 (21 stones); the game played A11
loadsgf positions.sgfs:130
130 reg_genmove b
#? [A11|F12]

# tygem-9d-2016-12.sgfs.gz:4806 before move 121: live O10 (11 stones); the game played L9
loadsgf positions.sgfs:131
131 reg_genmove b
#? [Q6|L8]

# tygem-9d-2016-12.sgfs.gz:4429 before move 168: kill P15 (14 stones); the game played G7
loadsgf positions.sgfs:132
132 reg_genmove w
#? [Q15|S19]

# tygem-9d-2016-12.sgfs.gz:1232 before move 113: kill D12 (15 stones); the game played O5
loadsgf positions.sgfs:133
133 reg_genmove b
#? [B11]

# tygem-9d-2016-12.sgfs.gz:724 before move 114: kill F11 (8 stones); the game played G13
loadsgf positions.sgfs:134
134 reg_genmove w
#? [G13|K13]

# tygem-9d-2016-12.sgfs.gz:3349 before move 178: live S14 (6 stones); the game played T8
loadsgf positions.sgfs:135
135 reg_genmove w
#? [T8|T14]

# tygem-9d-2016-12.sgfs.gz:3596 before move 110: kill R13 (9 stones); the game played T16
loadsgf positions.sgfs:136
136 reg_genmove w
#? [T11|T13]

# tygem-9d-2016-12.sgfs.gz:1380 before move 97: kill N10 (6 stones); the game played A3
loadsgf positions.sgfs:137
137 reg_genmove b
#? [N11]

# tygem-9d-2016-12.sgfs.gz:114 before move 65: kill B7 (8 stones); the game played H14
loadsgf positions.sgfs:138
138 reg_genmove b
#? [B9|C10]

# tygem-9d-2016-12.sgfs.gz:4078 before move 182: kill F14 (13 stones); the game played M12
loadsgf positions.sgfs:139
139 reg_genmove w
#? [K15]

# tygem-9d-2016-12.sgfs.gz:5117 before move 123: live G12 (10 stones); the game played K10
loadsgf positions.sgfs:140
140 reg_genmove b
#? [K8|K10]

# tygem-9d-2016-12.sgfs.gz:1750 before move 52: kill S7 (6 stones); the game played O6
loadsgf positions.sgfs:141
141 reg_genmove w
#? [O4|O6]

# tygem-9d-2016-12.sgfs.gz:3081 before move 57: kill T6 (10 stones); the game played O6
loadsgf positions.sgfs:142
142 reg_genmove b
#? [O6]

# tygem-9d-2016-12.sgfs.gz:4707 before move 152: live B15 (28 stones); the game played M7
loadsgf positions.sgfs:143
143 reg_genmove w
#? [G5|E10]

# tygem-9d-2016-12.sgfs.gz:1821 before move 154: kill L3 (8 stones); the game played Q8
loadsgf positions.sgfs:144
144 reg_genmove w
#? [L1|O1|P1]

# tygem-9d-2016-12.sgfs.gz:4632 before move 99: kill N5 (8 stones); the game played L5
loadsgf positions.sgfs:145
145 reg_genmove b
#? [L5]

# tygem-9d-2016-12.sgfs.gz:3537 before move 170: kill H18 (6 stones); the game played H6
loadsgf positions.sgfs:146
146 reg_genmove w
#? [F17|F18|H19]

# tygem-9d-2016-12.sgfs.gz:4493 before move 194: kill J9 (17 stones); the game played M16
loadsgf positions.sgfs:147
147 reg_genmove w
#? [J5]

# tygem-9d-2016-12.sgfs.gz:4285 before move 192: live B14 (7 stones); the game played A13
loadsgf positions.sgfs:148
148 reg_genmove w
#? [A13|A16]

# tygem-9d-2016-12.sgfs.gz:3859 before move 126: kill G18 (15 stones); the game played M16
loadsgf positions.sgfs:149
149 reg_genmove w
#? [M16]

# tygem-9d-2016-12.sgfs.gz:4000 before move 158: kill K9 (6 stones); the game played K6
loadsgf positions.sgfs:150
150 reg_genmove w
#? [K6|J7|J9]

# tygem-9d-2016-12.sgfs.gz:3470 before move 110: kill H5 (7 stones); the game played M4
loadsgf positions.sgfs:151
151 reg_genmove w
#? [M4]

