"""Every ruleset answers with at least dmz1990's keys, so the CLI can print any of them."""

import pytest

from engine.los import LosFacts
from engine.rules import get_ruleset

DMZ_KEYS = {"blocked", "visibility_result", "cover", "prone", "elevation", "visibility",
            "target_modifier", "total"}


@pytest.mark.parametrize("name", ["dmz1990", "sr3", "sr1", "darkcon"])
def test_result_keys_are_a_superset_of_dmz1990(name):
    f = LosFacts((0, 0, 0), (4, 0, 0), 4, False, None,
                 [{"kind": "window", "feature": "w", "reason": ""}], ["partial-darkness"], 0,
                 False, 0, "standing", "standing", "day")
    r = get_ruleset(name).modifiers(f, vision="low-light")
    assert DMZ_KEYS <= set(r)
    assert isinstance(r["total"], int) and isinstance(r["blocked"], bool)


def test_unknown_ruleset_names_the_known_ones():
    with pytest.raises(ValueError, match="darkcon, dmz1990, sr1, sr3"):
        get_ruleset("gurps")
