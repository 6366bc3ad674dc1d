"""clean_chinese_v4 --replay: the sd1 verdicts a committed change record implies."""

from mjscore.datasets.cleaning.clean_chinese_v4 import UNKNOWN, verdicts_from_record


def test_recorded_sd1_lines_keep_their_verdict_and_unnamed_ones_were_kept_as_1p(tmp_path):
    record = tmp_path / "changes.csv"
    record.write_text("image,line,old,new,reason\n"
                      "train/a.jpg,3,sd1,?,sd1 box: classifier unsure\n"
                      "train/a.jpg,5,sd1,8p,sd1 box: classifier relabelled\n"
                      "train/a.jpg,7,0.1 0.2 0.3,sd2 0.1 0.2 0.3 0.4,polygon -> min/max box\n"
                      "train/b.jpg,,,,empty label file: image dropped\n")
    verdicts = verdicts_from_record(record)
    assert verdicts.get(("train/a.jpg", 3)) == "drop" and UNKNOWN == "?"
    assert verdicts.get(("train/a.jpg", 5)) == "8p"
    assert verdicts.get(("train/a.jpg", 9)) == "1p"          # an sd1 line the record does not name
    assert ("train/a.jpg", 7) not in verdicts                 # polygon changes are not verdicts
