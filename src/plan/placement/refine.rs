//! `:sweep` refining the model: the sweep timed one body at several sizes on each device and saw
//! the work each run did (the class and units of every operation); the class that dominates
//! the body gets, on each device, the line that best fits those times once the model's cost of
//! the body's other work is taken out.

use super::{Line, Model, Work, WORKS};
use crate::device::Device;

/// The share of the body's predicted time, on each device, that its main class of work must
/// have for the sweep to stand for that class.
const DOMINANT_SHARE: f64 = 0.5;

/// One size of a sweep: the operations one run of the body did, and its median time on each
/// device.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSize {
    pub work: Vec<(Work, f64)>,
    pub cpu: f64,
    pub gpu: f64,
}

/// What a refinement changed: the class, and its crossover (elements) before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Refined {
    pub work: Work,
    pub before: Option<f64>,
    pub after: Option<f64>,
}

impl Model {
    /// Refits the lines of the class of work that dominates `sizes` on both devices; an error
    /// says why the sweep cannot stand for one class.
    pub fn refine(&mut self, sizes: &[SweepSize]) -> Result<Refined, String> {
        if self.gpu.is_none() {
            return Err("there is no gpu to compare with".into());
        }
        let largest = sizes
            .iter()
            .max_by(|a, b| units_of(a).total_cmp(&units_of(b)))
            .filter(|s| !s.work.is_empty())
            .ok_or("the body did no array work")?;
        let work = self.dominant(largest)?;
        let index = WORKS
            .iter()
            .position(|r| r.work == work)
            .expect("every work has a row");
        let before = self.crossover(work);
        let mut lines = [Line::default(); 2];
        for (line, device) in lines.iter_mut().zip([Device::Cpu, Device::Gpu]) {
            let points: Vec<Point> = sizes
                .iter()
                .filter_map(|s| self.point(s, work, device))
                .collect();
            *line = fit(&points).ok_or_else(|| {
                format!(
                    "the sweep needs two sizes whose {} differs",
                    work.row().noun
                )
            })?;
        }
        self.cpu[index] = lines[0];
        if let Some(g) = self.gpu.as_mut() {
            g.work[index] = lines[1];
        }
        Ok(Refined {
            work,
            before,
            after: self.crossover(work),
        })
    }

    /// The class with at least `DOMINANT_SHARE` of the body's predicted time on both devices.
    fn dominant(&self, size: &SweepSize) -> Result<Work, String> {
        let predicted = |device: Device, only: Option<Work>| -> f64 {
            size.work
                .iter()
                .filter(|(w, _)| only.is_none_or(|o| o == *w))
                .filter_map(|&(w, units)| self.time(device, w, units))
                .sum()
        };
        let share = |work: Work| {
            [Device::Cpu, Device::Gpu]
                .map(|d| predicted(d, Some(work)) / predicted(d, None).max(f64::MIN_POSITIVE))
        };
        WORKS
            .iter()
            .map(|r| (r.work, share(r.work)))
            .find(|(_, s)| s.iter().all(|&x| x >= DOMINANT_SHARE))
            .map(|(w, _)| w)
            .ok_or_else(|| {
                let mut seen: Vec<&str> = Vec::new();
                for (w, _) in &size.work {
                    if !seen.contains(&w.row().noun) {
                        seen.push(w.row().noun);
                    }
                }
                format!(
                    "no one class of work dominates the body ({}); sweep one at a time",
                    seen.join(", ")
                )
            })
    }

    /// The sweep's size as a point for `work`'s line on `device`: how many operations of it ran,
    /// their units, and the time left for them once the model's cost of the rest is taken out.
    fn point(&self, size: &SweepSize, work: Work, device: Device) -> Option<Point> {
        let mut point = Point {
            operations: 0.0,
            units: 0.0,
            seconds: match device {
                Device::Cpu => size.cpu,
                Device::Gpu => size.gpu,
            },
        };
        for &(w, units) in &size.work {
            if w == work {
                point.operations += 1.0;
                point.units += units;
            } else {
                point.seconds -= self.time(device, w, units)?;
            }
        }
        (point.operations > 0.0 && point.seconds > 0.0).then_some(point)
    }
}

fn units_of(size: &SweepSize) -> f64 {
    size.work.iter().map(|(_, u)| u).sum()
}

/// `seconds ≈ operations × fixed + units × per_unit`.
#[derive(Clone, Copy, Debug)]
struct Point {
    operations: f64,
    units: f64,
    seconds: f64,
}

/// The line with the least relative squared error over `points` (small sizes count as much as
/// large ones), neither cost negative; `None` unless two points tell the costs apart.
fn fit(points: &[Point]) -> Option<Line> {
    // Weighted normal equations of [operations, units] · [fixed, per_unit] = seconds.
    let (mut oo, mut ou, mut uu, mut os, mut us) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for p in points {
        let w = 1.0 / (p.seconds * p.seconds);
        oo += w * p.operations * p.operations;
        ou += w * p.operations * p.units;
        uu += w * p.units * p.units;
        os += w * p.operations * p.seconds;
        us += w * p.units * p.seconds;
    }
    let determinant = oo * uu - ou * ou;
    if points.len() < 2 || determinant <= 1e-9 * oo * uu {
        return None;
    }
    let fixed = (uu * os - ou * us) / determinant;
    let per_unit = (oo * us - ou * os) / determinant;
    Some(match (fixed >= 0.0, per_unit >= 0.0) {
        (true, true) => Line { fixed, per_unit },
        (false, _) => Line {
            fixed: 0.0,
            per_unit: us / uu,
        },
        (_, false) => Line {
            fixed: os / oo,
            per_unit: 0.0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        let text = include_str!("../../../tests/scripts/placement.model");
        Model::from_text(text).expect("the test model parses")
    }

    /// A body of `ops` elementwise operations over n elements, timed by lines `cpu` and `gpu`.
    fn sizes(ops: usize, cpu: Line, gpu: Line) -> Vec<SweepSize> {
        [1e3, 1e5, 1e7]
            .iter()
            .map(|&n| SweepSize {
                work: vec![(Work::Elementwise, n); ops],
                cpu: ops as f64 * cpu.at(n),
                gpu: ops as f64 * gpu.at(n),
            })
            .collect()
    }

    #[test]
    fn an_elementwise_sweep_gets_the_lines_it_measured() {
        let mut m = model();
        let cpu = Line {
            fixed: 1e-6,
            per_unit: 1e-9,
        };
        let gpu = Line {
            fixed: 1e-5,
            per_unit: 1e-11,
        };
        let refined = m.refine(&sizes(3, cpu, gpu)).expect("refines");
        assert_eq!(refined.work, Work::Elementwise);
        assert_eq!(refined.before, Some(12122.0));
        // 1 µs + 1 ns·n = 10 µs + 0.01 ns·n at n = 9,090.9
        assert_eq!(refined.after, Some(9091.0));
        let close = |a: Line, b: Line| {
            (a.fixed - b.fixed).abs() < 1e-12 && (a.per_unit / b.per_unit - 1.0).abs() < 1e-9
        };
        assert!(close(m.cpu[0], cpu), "{:?}", m.cpu[0]);
        assert!(close(m.gpu.as_ref().unwrap().work[0], gpu));
        // The other classes are as they were.
        assert_eq!(m.cpu[1..], model().cpu[1..]);
    }

    #[test]
    fn the_other_work_of_the_body_is_taken_out_first() {
        let mut m = model();
        let cpu = Line {
            fixed: 1e-6,
            per_unit: 1e-9,
        };
        let gpu = Line {
            fixed: 1e-5,
            per_unit: 1e-11,
        };
        let mut with_random = sizes(3, cpu, gpu);
        for s in &mut with_random {
            let n = s.work[0].1;
            s.work.push((Work::Random, n / 100.0));
            s.cpu += m.time(Device::Cpu, Work::Random, n / 100.0).unwrap();
            s.gpu += m.time(Device::Gpu, Work::Random, n / 100.0).unwrap();
        }
        assert_eq!(m.refine(&with_random).unwrap().after, Some(9091.0));
    }

    #[test]
    fn a_sweep_that_stands_for_no_one_class_is_refused() {
        let mut m = model();
        let before = m.clone();
        // At 1e6 elements elementwise work is most of the cpu's time, the reduction most of the gpu's.
        let mixed: Vec<SweepSize> = [1e3, 1e6]
            .iter()
            .map(|&n| {
                let work = vec![(Work::Elementwise, n), (Work::Reduction, n)];
                let cpu = work
                    .iter()
                    .map(|&(w, u)| m.time(Device::Cpu, w, u).unwrap());
                let gpu = work
                    .iter()
                    .map(|&(w, u)| m.time(Device::Gpu, w, u).unwrap());
                SweepSize {
                    cpu: cpu.sum(),
                    gpu: gpu.sum(),
                    work,
                }
            })
            .collect();
        assert_eq!(
            m.refine(&mixed),
            Err("no one class of work dominates the body (elementwise work, reductions); sweep one at a time".into())
        );
        let line = Line {
            fixed: 1e-6,
            per_unit: 1e-9,
        };
        assert_eq!(
            m.refine(&sizes(1, line, line)[..1]),
            Err("the sweep needs two sizes whose elementwise work differs".into())
        );
        assert_eq!(m.refine(&[]), Err("the body did no array work".to_string()));
        assert_eq!(m, before);
        let mut cpu_only = Model { gpu: None, ..m };
        assert!(cpu_only.refine(&sizes(1, line, line)).is_err());
    }
}
