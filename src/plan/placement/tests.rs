//! The decisions of a fixed model (the one the golden placement script injects), asserted
//! exactly: where each operation runs, what moves, and the sentence that says why.

use super::*;

fn model() -> Model {
    let text = include_str!("../../../tests/scripts/placement.model");
    Model::from_text(text).expect("the test model parses")
}

fn input(device: Device, elements: usize, name: &str) -> Input {
    Input {
        device,
        bytes: elements * 8,
        name: Some(name.to_string()),
        movable: true,
    }
}

#[test]
fn the_model_round_trips_through_its_text() {
    let m = model();
    assert_eq!(Model::from_text(&m.to_text()), Some(m.clone()));
    let cpu_only = Model { gpu: None, ..m };
    assert_eq!(Model::from_text(&cpu_only.to_text()), Some(cpu_only));
    assert_eq!(Model::from_text("machine x\ncpu elementwise 1 2\n"), None);
    assert_eq!(Model::from_text("cpu bogus 1 2\n"), None);
}

#[test]
fn crossovers_are_where_the_gpu_starts_to_win() {
    let m = model();
    // 2 µs + 0.5 ns·n = 8 µs + 0.005 ns·n at n = 12,121.2
    assert_eq!(m.crossover(Work::Elementwise), Some(12122.0));
    // 1 µs + 1 ns·n = 10 µs + 0.01 ns·n at n = 9,090.9
    assert_eq!(m.crossover(Work::Random), Some(9091.0));
    let never = Model {
        gpu: m.gpu.clone().map(|mut g| {
            g.work[0] = Line {
                fixed: 1.0,
                per_unit: 1.0,
            };
            g
        }),
        ..m.clone()
    };
    assert_eq!(never.crossover(Work::Elementwise), None);
    assert_eq!(Model { gpu: None, ..m }.crossover(Work::Sort), None);
}

#[test]
fn new_arrays_go_where_their_work_is_faster() {
    let m = model();
    let small = m.decide(&Task::new(Work::Random, 5_000, vec![]));
    assert_eq!(small.device, Device::Cpu);
    assert_eq!(
        small.reason,
        "made on cpu: 5,000 elements, below the gpu crossover of 9,091 for random numbers"
    );
    let large = m.decide(&Task::new(Work::Random, 100_000, vec![]));
    assert_eq!(large.device, Device::Gpu);
    assert_eq!(
        large.reason,
        "made on gpu: 100,000 elements, above the gpu crossover of 9,091 for random numbers"
    );
}

#[test]
fn work_stays_where_its_inputs_are_unless_moving_pays() {
    let m = model();
    // 1e6 elements on the cpu: the gpu computes faster, but copying 8 MB costs more.
    let stays = m.decide(&Task::new(
        Work::Elementwise,
        1_000_000,
        vec![input(Device::Cpu, 1_000_000, "x")],
    ));
    assert_eq!(stays.device, Device::Cpu);
    assert!(stays.moves.is_empty());
    assert_eq!(
        stays.reason,
        "ran on cpu, where its inputs are: 1,000,000 elements of elementwise work take 502 µs here, 13 µs + 810 µs of copies on the gpu"
    );
    let below = m.decide(&Task::new(
        Work::Elementwise,
        5_000,
        vec![input(Device::Cpu, 5_000, "x")],
    ));
    assert_eq!(
        below.reason,
        "ran on cpu: 5,000 elements, below the gpu crossover of 12,122 for elementwise work"
    );
    let on_gpu = m.decide(&Task::new(
        Work::Elementwise,
        1_000_000,
        vec![input(Device::Gpu, 1_000_000, "x")],
    ));
    assert_eq!(
        on_gpu.reason,
        "ran on gpu: 1,000,000 elements, above the gpu crossover of 12,122 for elementwise work"
    );
    // A 2000×2000 product of cpu matrices: 16 GFLOP is 160 ms on this cpu, 0.3 ms there.
    let mut product = Task::new(
        Work::MatrixProduct,
        4_000_000,
        vec![
            input(Device::Cpu, 4_000_000, "a"),
            input(Device::Cpu, 4_000_000, "b"),
        ],
    );
    product.units = 2.0 * 2000f64.powi(3);
    let moved = m.decide(&product);
    assert_eq!(moved.device, Device::Gpu);
    assert_eq!(moved.moves, vec![0, 1]);
    assert_eq!(
        moved.reason,
        "moved a (32.0 MB), b (32.0 MB) to the gpu: 4,000,000 elements of matrix products take 340 µs + 6.4 ms of copies here, 160.0 ms on the cpu"
    );
}

#[test]
fn mixed_inputs_move_the_cheaper_side() {
    let m = model();
    let task = Task::new(
        Work::Elementwise,
        1_000_000,
        vec![
            input(Device::Gpu, 1_000_000, "big"),
            input(Device::Cpu, 1_000, "small"),
        ],
    );
    let d = m.decide(&task);
    assert_eq!(d.device, Device::Gpu);
    assert_eq!(d.moves, vec![1]);
    assert_eq!(
        d.reason,
        "moved small (8.0 KB) to the gpu: 1,000,000 elements of elementwise work take 13 µs + 11 µs of copies here, 502 µs + 812 µs of copies on the cpu"
    );
}

#[test]
fn inputs_placed_by_the_user_stay() {
    let m = model();
    let mut pinned = input(Device::Cpu, 4_000_000, "a");
    pinned.movable = false;
    let mut product = Task::new(Work::MatrixProduct, 4_000_000, vec![pinned]);
    product.units = 2.0 * 2000f64.powi(3);
    let d = m.decide(&product);
    assert_eq!(d.device, Device::Cpu);
    assert!(d.moves.is_empty());
    assert_eq!(
        d.reason,
        "ran on cpu: a (32.0 MB) was placed there with device= or to()"
    );
}

#[test]
fn without_a_gpu_everything_is_the_cpu() {
    let m = Model {
        gpu: None,
        ..model()
    };
    let d = m.decide(&Task::new(Work::Random, 1 << 30, vec![]));
    assert_eq!(d.device, Device::Cpu);
    assert_eq!(d.reason, "made on cpu: no gpu");
    assert_eq!(m.reads_worth_a_move(8), None);
}

#[test]
fn element_reads_move_an_array_once_they_cost_as_much() {
    // 12 µs + 0.1 ns/B × 800 KB = 92 µs of copy; 8 µs a read: the 12th read moves it.
    assert_eq!(model().reads_worth_a_move(800_000), Some(12));
    assert_eq!(model().reads_worth_a_move(8), Some(2));
}

#[test]
fn counts_have_thousands_separators() {
    assert_eq!(thousands(0.0), "0");
    assert_eq!(thousands(999.0), "999");
    assert_eq!(thousands(1000.0), "1,000");
    assert_eq!(thousands(1234567.0), "1,234,567");
}

#[test]
fn a_gpu_not_started_yet_costs_its_start() {
    let m = model();
    let mut task = Task::new(Work::Random, 100_000, vec![]);
    task.gpu_started = false;
    let d = m.decide(&task);
    assert_eq!(d.device, Device::Cpu);
    assert_eq!(
        d.reason,
        "made on cpu: 100,000 elements of random numbers take 101 µs here; the gpu would take 11 µs after starting it (300.0 ms)"
    );
    let mut huge = Task::new(Work::Random, 1_000_000_000, vec![]);
    huge.gpu_started = false;
    let d = m.decide(&huge);
    assert_eq!(d.device, Device::Gpu);
    assert_eq!(
        d.reason,
        "made on gpu: 1,000,000,000 elements of random numbers take 10.0 ms + 300.0 ms to start the gpu here, 1.0 s on the cpu"
    );
}

#[test]
fn the_gpu_starts_once_what_it_would_have_saved_reaches_half_its_start() {
    let m = model();
    // 400e6 elements: 200 ms on the cpu, 2 ms on the gpu + 300 ms to start it. The 198 ms it
    // saves are more than half of its start: it starts.
    let mut big = Task::new(Work::Elementwise, 400_000_000, vec![]);
    big.gpu_started = false;
    let d = m.decide(&big);
    assert_eq!(d.device, Device::Gpu);
    assert_eq!(d.forgone, 0.0);
    assert_eq!(
        d.reason,
        "made on gpu: 400,000,000 elements, above the gpu crossover of 12,122 for elementwise work; this starts the gpu (300.0 ms): the time it saves, with what it would have saved so far, is 198.0 ms, more than half of that"
    );
    // 100e6 elements save 49.5 ms (50.0 against 0.5): not enough alone, so the cpu does it and the saving is kept…
    let mut some = Task::new(Work::Elementwise, 100_000_000, vec![]);
    some.gpu_started = false;
    let d = m.decide(&some);
    assert_eq!(d.device, Device::Cpu);
    assert!((d.forgone - 0.049494).abs() < 1e-9, "{}", d.forgone);
    // …until the savings given up add up.
    some.forgone = 0.11;
    assert_eq!(m.decide(&some).device, Device::Gpu);
}
