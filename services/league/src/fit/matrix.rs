//! Dense symmetric positive-definite matrices, row-major: the Cholesky factor, solving with it
//! and the inverse (the covariance of a fit is the inverse of its observed information).

/// A square matrix of side `n`, row-major.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Square {
    pub(crate) n: usize,
    pub(crate) cells: Vec<f64>,
}

impl Square {
    pub(crate) fn zero(n: usize) -> Square {
        Square {
            n,
            cells: vec![0.0; n * n],
        }
    }

    pub(crate) fn get(&self, i: usize, j: usize) -> f64 {
        self.cells.get(i * self.n + j).copied().unwrap_or(0.0)
    }

    pub(crate) fn add(&mut self, i: usize, j: usize, x: f64) {
        if let Some(cell) = self.cells.get_mut(i * self.n + j) {
            *cell += x;
        }
    }

    /// The lower Cholesky factor `L` with `L Lᵀ = self`; `None` when the matrix is not
    /// positive definite (a pivot at or below 0).
    pub(crate) fn cholesky(&self) -> Option<Square> {
        let n = self.n;
        let mut l = Square::zero(n);
        for j in 0..n {
            let row_j = &l.cells[j * n..j * n + j];
            let diag = self.get(j, j) - row_j.iter().map(|x| x * x).sum::<f64>();
            if diag.is_nan() || diag <= 0.0 {
                return None;
            }
            let pivot = diag.sqrt();
            l.cells[j * n + j] = pivot;
            for i in j + 1..n {
                let dot: f64 = (0..j)
                    .map(|k| l.cells[i * n + k] * l.cells[j * n + k])
                    .sum();
                l.cells[i * n + j] = (self.get(i, j) - dot) / pivot;
            }
        }
        Some(l)
    }
}

/// Solves `L Lᵀ x = b` for `x` given the Cholesky factor `l`.
pub(crate) fn solve(l: &Square, b: &[f64]) -> Vec<f64> {
    let n = l.n;
    let mut y = vec![0.0; n];
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l.cells[i * n + k] * y[k]).sum();
        y[i] = (b.get(i).copied().unwrap_or(0.0) - dot) / l.cells[i * n + i];
    }
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l.cells[k * n + i] * y[k]).sum();
        y[i] = (y[i] - dot) / l.cells[i * n + i];
    }
    y
}

/// `(L Lᵀ)⁻¹` from the Cholesky factor `l`: `L⁻ᵀ L⁻¹`.
pub(crate) fn inverse(l: &Square) -> Square {
    let n = l.n;
    // m = L⁻¹, lower triangular, by forward substitution column by column.
    let mut m = Square::zero(n);
    for j in 0..n {
        m.cells[j * n + j] = 1.0 / l.cells[j * n + j];
        for i in j + 1..n {
            let dot: f64 = (j..i)
                .map(|k| l.cells[i * n + k] * m.cells[k * n + j])
                .sum();
            m.cells[i * n + j] = -dot / l.cells[i * n + i];
        }
    }
    // inverse = mᵀ m: cell (i, j) = Σ_{k ≥ max(i,j)} m[k][i] m[k][j].
    let mut out = Square::zero(n);
    for k in 0..n {
        let row = &m.cells[k * n..k * n + k + 1];
        for (i, &mi) in row.iter().enumerate() {
            if mi == 0.0 {
                continue;
            }
            let target = &mut out.cells[i * n..i * n + i + 1];
            for (cell, &mj) in target.iter_mut().zip(row) {
                *cell += mi * mj;
            }
        }
    }
    for i in 0..n {
        for j in 0..i {
            out.cells[j * n + i] = out.cells[i * n + j];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: &[&[f64]]) -> Square {
        Square {
            n: rows.len(),
            cells: rows.iter().flat_map(|r| r.iter().copied()).collect(),
        }
    }

    #[test]
    fn the_inverse_of_a_known_matrix() {
        // [[4, 2], [2, 3]]⁻¹ = [[3, −2], [−2, 4]] / 8.
        let a = matrix(&[&[4.0, 2.0], &[2.0, 3.0]]);
        let l = a.cholesky().expect("positive definite");
        let inv = inverse(&l);
        let want = [0.375, -0.25, -0.25, 0.5];
        for (got, want) in inv.cells.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{:?}", inv.cells);
        }
        let x = solve(&l, &[2.0, 1.0]);
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn a_matrix_times_its_inverse_is_the_identity() {
        let a = matrix(&[
            &[6.0, 1.0, -2.0, 0.5],
            &[1.0, 5.0, 1.0, -1.0],
            &[-2.0, 1.0, 7.0, 0.0],
            &[0.5, -1.0, 0.0, 3.0],
        ]);
        let inv = inverse(&a.cholesky().expect("positive definite"));
        for i in 0..4 {
            for j in 0..4 {
                let cell: f64 = (0..4).map(|k| a.get(i, k) * inv.get(k, j)).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((cell - want).abs() < 1e-12, "({i}, {j}) = {cell}");
            }
        }
        assert!(matrix(&[&[1.0, 2.0], &[2.0, 1.0]]).cholesky().is_none());
    }
}
