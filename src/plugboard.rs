//! The J.R. 01 plug program (the J.R. 01 manual, "Schéma du programme"): each product of a lamp's sum of
//! products takes one programming column; on each input bar (A, B, C) a plug sits left of the
//! column for the true input, right of it for the complement, or on both sides to neutralise
//! the input. A lamp lights when any of its columns conducts.

use crate::logic::Sop;
use serde::Serialize;
use std::fmt;

/// Where the plugs of one bar sit on a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Plug {
    /// Left: the input itself (A).
    Left,
    /// Right: the complement (A').
    Right,
    /// Both sides: the input is neutralised.
    Both,
}

impl fmt::Display for Plug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Plug::Left => "left",
            Plug::Right => "right",
            Plug::Both => "both",
        })
    }
}

/// One programming column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    /// 1-based column number.
    pub number: usize,
    /// The lamp it feeds.
    pub lamp: String,
    /// Plugs on each input bar, most significant input first.
    pub plugs: Vec<Plug>,
    /// The product it represents, in the J.R. 01 manual's notation.
    pub product: String,
}

/// Lays the covers of the lamps onto columns, lamp by lamp, products in cover order.
pub fn plug_program(covers: &[(&str, &Sop)], inputs: &[&str]) -> Vec<Column> {
    let mut columns = Vec::new();
    for (lamp, sop) in covers {
        for (cube, product) in sop.cubes().iter().zip(sop.render_products(inputs)) {
            let n = inputs.len();
            let plugs = (0..n)
                .map(|i| match cube.literal(n - 1 - i) {
                    Some(true) => Plug::Left,
                    Some(false) => Plug::Right,
                    None => Plug::Both,
                })
                .collect();
            columns.push(Column {
                number: columns.len() + 1,
                lamp: lamp.to_string(),
                plugs,
                product,
            });
        }
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Cube;

    #[test]
    fn a_product_maps_to_plugs_bar_by_bar() {
        // B·C' over A B C: A neutralised, B left, C right.
        let sop = Sop::new(
            3,
            vec![Cube {
                mask: 0b011,
                bits: 0b010,
            }],
        );
        let cols = plug_program(&[("Y", &sop)], &["A", "B", "C"]);
        assert_eq!(cols.len(), 1);
        assert_eq!(cols[0].plugs, vec![Plug::Both, Plug::Left, Plug::Right]);
        assert_eq!(cols[0].product, "B·C'");
    }
}
