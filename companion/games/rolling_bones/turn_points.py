TURN_POINTS: dict[int, int] = {0: 1}
