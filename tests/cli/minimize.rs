//! `retrogate minimize sticks`: the covers it prints, evaluated for every stick count, give the
//! solver's table (from `retrogate table sticks --format json`), and each is marked exact or
//! greedy.

use super::retrogate;

/// The printed covers: (output name, sum of products, marker).
fn covers(args: &[&str]) -> Vec<(String, String, String)> {
    let out = retrogate()
        .args(["minimize", "sticks"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let (name, rest) = line.split_once(" = ").unwrap();
            let (sop, rest) = rest.split_once("    (").unwrap();
            let (_, marker) = rest.split_once(")  ").unwrap();
            (name.to_string(), sop.to_string(), marker.to_string())
        })
        .collect()
}

/// The value of a printed sum of products (`n7·n6' + n0`, `0` or `1`) at stick count `n`.
fn eval(sop: &str, n: u64) -> bool {
    match sop {
        "0" => false,
        "1" => true,
        _ => sop.split(" + ").any(|product| {
            product.split('·').all(|literal| {
                let (bit, negated) = match literal.strip_suffix('\'') {
                    Some(b) => (b, true),
                    None => (literal, false),
                };
                let k: u32 = bit.strip_prefix('n').unwrap().parse().unwrap();
                ((n >> k) & 1 == 1) != negated
            })
        }),
    }
}

/// `(sticks, take, winning)` of every row of the solver's table.
fn table(args: &[&str]) -> Vec<(u64, u64, bool)> {
    let out = retrogate()
        .args(["table", "sticks", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["sticks"].as_u64().unwrap(),
                r["take"].as_u64().unwrap(),
                r["winning"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn check(args: &[&str]) -> Vec<(String, String)> {
    let covers = covers(args);
    let rows = table(args);
    for (n, take, winning) in rows {
        for (name, sop, _) in &covers {
            let want = match name.as_str() {
                "winning" => winning,
                _ => {
                    let k: u32 = name
                        .strip_prefix("take[")
                        .and_then(|s| s.strip_suffix(']'))
                        .unwrap()
                        .parse()
                        .unwrap();
                    (take >> k) & 1 == 1
                }
            };
            assert_eq!(eval(sop, n), want, "{args:?}: {name} at {n} sticks");
        }
    }
    covers.into_iter().map(|(name, _, m)| (name, m)).collect()
}

#[test]
fn the_covers_reproduce_the_solvers_table_and_say_which_are_exact() {
    let exact = "exact minimum".to_string();
    let greedy = "greedy: irredundant, not proven minimal".to_string();
    assert_eq!(
        check(&[]),
        vec![
            ("take[1]".to_string(), exact.clone()),
            ("take[0]".to_string(), exact.clone()),
            ("winning".to_string(), exact.clone()),
        ]
    );
    // The 255-stick {1,3,4} table: two bits have more than 80 prime implicants (see
    // `large_tables_get_a_correct_cover` in src/circuit/sticks_strategy.rs).
    assert_eq!(
        check(&["--count", "255", "--take", "1,3,4"]),
        vec![
            ("take[2]".to_string(), exact.clone()),
            ("take[1]".to_string(), exact.clone()),
            ("take[0]".to_string(), greedy.clone()),
            ("winning".to_string(), greedy.clone()),
        ]
    );
    let marks = check(&["--count", "200", "--take", "2,5,7", "--last", "wins"]);
    assert_eq!(marks.len(), 4);
    assert!(marks.iter().all(|(_, m)| *m == exact || *m == greedy));
}
