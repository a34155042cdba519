# the same steps, repeated 3 s after the last one (a period of 5 s)
0 0.5
2 1.0
LOOPAFTER 3
