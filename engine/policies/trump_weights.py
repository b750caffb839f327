"""The trump evaluator's weights, by place from the opening leader, in the order of
``trump_eval.FEATURE_NAMES``. Made by ``klaverjas trump-model`` (do not edit): seed 1,
6000 deals solved eight times each; the fit of each place (samples, R², RMSE):
24000, 0.249, 138.0.
24000, 0.241, 132.9.
24000, 0.254, 137.5.
24000, 0.247, 132.3.
"""

WEIGHTS = (
    (
        -195.3901,  # bias
        129.331,  # trump jack
        59.6081,  # trump nine
        47.7653,  # trump ace
        37.3136,  # trump ten
        37.3414,  # trump king
        28.4415,  # trump queen
        28.0218,  # trump eight
        28.4313,  # trump seven
        17.6711,  # four trumps or more
        -19.4304,  # five trumps or more
        27.8711,  # jack and nine
        -8.5263,  # stuk
        55.4779,  # side aces
        17.1245,  # side tens with their ace
        16.1104,  # side tens guarded
        5.89,  # side tens bare
        3.5135,  # side kings
        34.5733,  # side voids
        2.5669,  # side singletons
    ),
    (
        -234.8321,  # bias
        122.3841,  # trump jack
        53.3413,  # trump nine
        43.865,  # trump ace
        37.384,  # trump ten
        31.8884,  # trump king
        24.4747,  # trump queen
        27.5901,  # trump eight
        25.0915,  # trump seven
        25.6943,  # four trumps or more
        -2.4804,  # five trumps or more
        25.1733,  # jack and nine
        6.211,  # stuk
        56.726,  # side aces
        5.3353,  # side tens with their ace
        19.4886,  # side tens guarded
        10.8344,  # side tens bare
        3.3462,  # side kings
        30.394,  # side voids
        -2.618,  # side singletons
    ),
    (
        -192.293,  # bias
        132.4125,  # trump jack
        58.9575,  # trump nine
        42.0761,  # trump ace
        33.8018,  # trump ten
        30.7213,  # trump king
        23.4139,  # trump queen
        25.6652,  # trump eight
        22.2629,  # trump seven
        14.8488,  # four trumps or more
        -13.9978,  # five trumps or more
        22.9151,  # jack and nine
        -4.7145,  # stuk
        57.2531,  # side aces
        16.0227,  # side tens with their ace
        17.1661,  # side tens guarded
        7.7478,  # side tens bare
        3.1548,  # side kings
        48.5965,  # side voids
        2.4852,  # side singletons
    ),
    (
        -232.6223,  # bias
        124.8245,  # trump jack
        59.4732,  # trump nine
        44.195,  # trump ace
        34.7043,  # trump ten
        33.1195,  # trump king
        26.2133,  # trump queen
        27.677,  # trump eight
        31.711,  # trump seven
        29.2594,  # four trumps or more
        1.4793,  # five trumps or more
        17.5641,  # jack and nine
        -5.2041,  # stuk
        56.0955,  # side aces
        7.8999,  # side tens with their ace
        16.3229,  # side tens guarded
        9.8272,  # side tens bare
        1.4558,  # side kings
        27.3634,  # side voids
        -4.9611,  # side singletons
    ),
)

# (dealt hand as a mask, trump, place, value) as made here: every machine must agree
CASES = (
    (842137605, 0, 0, -72.77739999999999),
    (143147114, 1, 0, -57.3655),
    (2164341888, 2, 0, -37.325700000000005),
    (1145340688, 3, 0, -36.882299999999994),
    (2153906594, 0, 1, -84.06609999999998),
    (1151156224, 1, 1, -107.1422),
    (134254164, 2, 1, -161.2082),
    (855650313, 3, 1, 40.2852),
    (553664636, 0, 2, 160.30209999999997),
    (134688000, 1, 2, 19.821399999999997),
    (2518683778, 2, 2, -51.88769999999999),
    (1087930881, 3, 2, -25.402800000000013),
    (117448782, 0, 3, -25.98659999999998),
    (1074435329, 1, 3, 82.2614),
    (2956018176, 2, 3, 35.0412),
    (147065008, 3, 3, -79.4051),
    (2160068651, 0, 0, 69.9823),
    (34653764, 1, 0, 3.6649000000000123),
    (472711424, 2, 0, 29.326100000000032),
    (1627533456, 3, 0, -51.657400000000024),
    (88085200, 0, 1, -35.96639999999999),
    (2190508321, 1, 1, -52.42359999999999),
    (1210386442, 2, 1, -81.38479999999998),
    (805987332, 3, 1, -67.75649999999999),
)
