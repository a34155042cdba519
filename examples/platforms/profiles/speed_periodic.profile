# speed scale of host A: 0.5 from 0 s, 1.0 from 2 s, repeated every 3 s
0 0.5
2 1.0
PERIODICITY 3
