//! Where a pass's registers and a program's constants lie in a page (4K aliasing).

use super::*;

/// A program storing to `addresses[0]`, loading from the other addresses, with `constants`
/// kept constants; never run, only placed.
fn program(addresses: &[usize], constants: usize) -> Program {
    let layout = Layout::contiguous(&[1 << 20]);
    let source = |pointer| Source {
        pointer,
        layout: layout.clone(),
        size: 8,
    };
    let mut steps: Steps = (0..addresses.len() - 1)
        .map(|leaf| (Step::Load { leaf }, DType::F64))
        .collect();
    steps.extend((0..constants).map(|k| (Step::Constant(Scalar::Float(k as f64)), DType::F64)));
    let mut program = Program {
        shape: layout.shape.clone(),
        direct: smallvec::smallvec![None; steps.len()],
        constants: Constants::default(),
        steps,
        leaves: addresses[1..].iter().map(|&a| source(a)).collect(),
        stores: smallvec::smallvec![(0, source(addresses[0]))],
    };
    program.fill_constants(CHUNK);
    program
}

fn apart(a: usize, b: usize) -> usize {
    let d = (a + PAGE - b % PAGE) % PAGE;
    d.min(PAGE - d)
}

#[test]
fn constants_start_a_third_of_a_page_from_large_arrays() {
    let p = program(&[0x7f00_0000_0010, 0x7f10_0000_0010], 2);
    let first = p.constants.register(1) as usize;
    assert_eq!(first % PAGE, CONSTANTS_IN_PAGE);
    for (a, b) in [
        (CONSTANTS_IN_PAGE, 16),
        (REGISTERS_IN_PAGE, 16),
        (REGISTERS_IN_PAGE, CONSTANTS_IN_PAGE),
    ] {
        assert!(apart(a, b) >= 1360);
    }
    // Large arrays 16 bytes into their pages: the registers keep their usual place.
    assert_eq!(
        p.registers_in_page(0, CHUNK, true),
        REGISTERS_IN_PAGE,
        "{:?}",
        p.constants.at
    );
}

#[test]
fn registers_keep_a_sixteenth_of_a_page_from_every_stream() {
    // Up to 7 streams each come within 256 bytes of at most one of the 8 places.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        0x7f00_0000_0000 + (state as usize % (1 << 20)) * 16
    };
    for arrays in 2..=5 {
        for _ in 0..200 {
            let addresses: Vec<usize> = (0..arrays).map(|_| next()).collect();
            let p = program(&addresses, 2);
            for start in [0, 1000, 65536] {
                let place = p.registers_in_page(start, start + CHUNK, true);
                let constants = [0, 1].map(|k| p.constants.register(arrays - 1 + k) as usize);
                let streams = addresses.iter().map(|a| a + start * 8).chain(constants);
                for stream in streams {
                    assert!(
                        apart(place, stream) >= 256,
                        "{place} {stream:#x} {addresses:x?}"
                    );
                }
            }
        }
    }
}

#[test]
fn short_passes_take_the_usual_place() {
    let p = program(&[0x7f00_0000_0a00, 0x7f10_0000_0a00], 1);
    assert_eq!(
        p.registers_in_page(0, PLACED_FROM - 1, true),
        REGISTERS_IN_PAGE
    );
    assert_ne!(p.registers_in_page(0, PLACED_FROM, true), REGISTERS_IN_PAGE);
}

#[test]
fn an_arena_starts_its_registers_where_asked() {
    for words in [1, 512, 16 * CHUNK] {
        let mut arena = Arena::take(words);
        for place in [16, REGISTERS_IN_PAGE, PAGE - 16] {
            let base = arena.base(place) as usize;
            assert_eq!(base % PAGE, place);
            let end = arena.0.as_ptr() as usize + arena.0.capacity() * 16;
            assert!(base + words * 16 <= end);
        }
    }
}
