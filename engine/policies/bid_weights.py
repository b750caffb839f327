"""The bidding model's weights, in the order of ``trump_eval.BID_FEATURE_NAMES``. Made
by ``klaverjas bid-model`` (do not edit): seed 2, 3000 deals played twice;
the fit (samples, R², RMSE): 5104, 0.111, 161.1.
"""

BID_WEIGHTS = (
    -26.662,  # bias
    24.3831,  # trump jack
    18.0813,  # trump nine
    -3.4292,  # trump ace
    -5.4669,  # trump ten
    -4.8229,  # trump king
    3.6312,  # trump queen
    6.4454,  # trump eight
    11.0829,  # trump seven
    -10.1375,  # four trumps or more
    -7.3942,  # five trumps or more
    1.9246,  # jack and nine
    20.1109,  # stuk
    -13.3933,  # side aces
    -13.1421,  # side tens with their ace
    -4.157,  # side tens guarded
    -4.2161,  # side tens bare
    -3.2609,  # side kings
    13.0628,  # side voids
    14.9998,  # side singletons
    12.9162,  # the rule of thumb accepts it
    0.7256,  # the best suit's value
    -0.0415,  # the second best suit's value
    -16.8225,  # aces
    -14.3081,  # jacks
    29.2674,  # second to bid
    24.3473,  # third to bid
    14.2453,  # fourth to bid
)

# (dealt hand as a mask, trump, place, edge) as made here: every machine must agree
CASES = (
    (842137605, 0, 0, 4.035907750000007),
    (143147114, 1, 0, -45.867916629999996),
    (2164341888, 2, 0, 82.38410559000002),
    (1145340688, 3, 0, -47.23691207),
    (2153906594, 0, 1, -34.00755548999999),
    (1151156224, 1, 1, 46.65265299000001),
    (134254164, 2, 1, 24.233266720000007),
    (855650313, 3, 1, 62.02800517),
    (553664636, 0, 2, 180.71034395999996),
    (134688000, 1, 2, 53.49579754),
    (2518683778, 2, 2, 45.932613570000015),
    (1087930881, 3, 2, 9.885588679999977),
    (117448782, 0, 3, 3.942997190000016),
    (1074435329, 1, 3, 98.63306569000001),
    (2956018176, 2, 3, 16.34816217),
    (147065008, 3, 3, -62.16412725000001),
)
