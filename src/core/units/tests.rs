//! Tests of parsing and formatting.

use super::*;

mod unit_tests {
    use super::*;

    #[test]
    fn tick_steps_are_one_two_or_five_times_a_power_of_ten() {
        // 12 ms / 6 = 2 ms exactly; 10 ms / 6 = 1.67 ms → 2 ms;
        // 17 ms / 6 = 2.83 ms → 5 ms; 40 ms / 6 = 6.67 ms → 10 ms.
        for (span, want) in [(12e-3, 2e-3), (10e-3, 2e-3), (17e-3, 5e-3), (40e-3, 10e-3)] {
            let got = tick_step(span);
            assert!((got - want).abs() <= 1e-12, "{span}: {got}");
        }
    }

    fn size(s: &str) -> u64 {
        parse_size(s).expect("valid size").bytes
    }

    #[test]
    fn parse_size_decimal_and_binary() {
        assert_eq!(size("100MB"), 100_000_000);
        assert_eq!(size("64MiB"), 67_108_864);
        assert_eq!(size("8KiB"), 8192);
        assert_eq!(size("8 KiB"), 8192);
        assert_eq!(size("1.5 GB"), 1_500_000_000);
        assert_eq!(size("512B"), 512);
        assert_eq!(size("1e6B"), 1_000_000);
        assert_eq!(size("1.5KiB"), 1536);
        assert_eq!(size("1KB"), 1000);
        assert_eq!(size("1kB"), 1000);
        assert_eq!(size("1mb"), 1_000_000);
        assert_eq!(size("1gib"), 1_073_741_824);
        assert_eq!(size("1TiB"), 1_099_511_627_776);
        assert_eq!(size("250 bytes"), 250);
        assert_eq!(size("  64MiB  "), 67_108_864);
        assert_eq!(size("1024TiB"), MAX_SIZE_BYTES);
        assert_eq!(parse_size("64MiB").expect("valid").prefix, Prefix::Binary);
        assert_eq!(parse_size("100MB").expect("valid").prefix, Prefix::Decimal);
        assert_eq!(parse_size("512B").expect("valid").prefix, Prefix::None);
    }

    #[test]
    fn parse_size_errors() {
        let e = parse_size("12parsecs").expect_err("unknown unit");
        assert_eq!(
            e,
            UnitError::UnknownUnit {
                quantity: Quantity::Size,
                unit: "parsecs".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown size unit “parsecs”: use B, kB, MB, GB, TB, KiB, MiB, GiB or TiB"
        );
        let e = parse_size("-3MB").expect_err("negative");
        assert_eq!(e, UnitError::Negative(Quantity::Size));
        assert_eq!(e.to_string(), "size must not be negative");
        // a negative number without a unit is told it is negative first
        assert_eq!(parse_size("-5"), Err(UnitError::Negative(Quantity::Size)));
        assert_eq!(parse_time("-5"), Err(UnitError::Negative(Quantity::Time)));
        let e = parse_size("100").expect_err("no unit");
        assert_eq!(e, UnitError::MissingUnit(Quantity::Size));
        assert_eq!(e.to_string(), "size needs a unit such as 64MiB or 100MB");
        // a bare zero is told it is zero, not that it lacks a unit
        assert_eq!(parse_size("0"), Err(UnitError::Zero(Quantity::Size)));
        assert_eq!(parse_size("0.0"), Err(UnitError::Zero(Quantity::Size)));
        assert_eq!(
            parse_bandwidth("0"),
            Err(UnitError::Zero(Quantity::Bandwidth))
        );
        assert_eq!(parse_time("0"), Err(UnitError::MissingUnit(Quantity::Time)));
        assert_eq!(parse_size(""), Err(UnitError::Empty(Quantity::Size)));
        assert_eq!(parse_size("   "), Err(UnitError::Empty(Quantity::Size)));
        assert!(matches!(
            parse_size("abcMB"),
            Err(UnitError::NotANumber { .. })
        ));
        let e = parse_size("100Mb").expect_err("bits");
        assert_eq!(e, UnitError::BitsNotBytes { unit: "Mb".into() });
        assert!(e.to_string().contains("sizes are in bytes"));
        assert!(matches!(
            parse_size("1Gb"),
            Err(UnitError::BitsNotBytes { .. })
        ));
        assert!(matches!(
            parse_size("1Mbit"),
            Err(UnitError::BitsNotBytes { .. })
        ));
        // 0.1 KiB = 102.4 B; 1.0005 kB = 1000.5 B.
        assert_eq!(parse_size("0.1KiB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("1.0005kB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("0.5B"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("0MB"), Err(UnitError::Zero(Quantity::Size)));
        // 1 PiB + 1 B, and absurd exponents.
        assert_eq!(
            parse_size("1125899906842625B"),
            Err(UnitError::TooLarge(Quantity::Size))
        );
        assert_eq!(
            parse_size("1e400TB"),
            Err(UnitError::TooLarge(Quantity::Size))
        );
        assert_eq!(parse_size("1e-400TB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("1.1PB").map(|b| b.bytes).ok(), None);
        assert_eq!(
            parse_size(&format!("{}B", "1".repeat(40))),
            Err(UnitError::TooManyDigits)
        );
        assert!(parse_size("MB").is_err());
        assert!(parse_size(".MB").is_err());
        assert!(parse_size("5 µs").is_err());
    }

    #[test]
    fn format_exact_round_trips_family() {
        let cases = [
            (67_108_864, Prefix::Binary, "64MiB"),
            (1_500_000_000, Prefix::Decimal, "1.5GB"),
            (512, Prefix::Decimal, "0.512kB"),
            (512, Prefix::Binary, "0.5KiB"),
            (512, Prefix::None, "512B"),
            (1536, Prefix::Binary, "1.5KiB"),
            (100_000_000, Prefix::Decimal, "100MB"),
        ];
        for (bytes, prefix, text) in cases {
            let b = ByteSize { bytes, prefix };
            assert_eq!(b.to_string(), text);
            assert_eq!(parse_size(text), Ok(b));
        }
    }

    #[test]
    fn parse_time_units() {
        let t = |s: &str| parse_time(s).expect("valid time");
        assert_eq!(t("5us"), 5e-6);
        assert_eq!(t("5 µs"), 5e-6);
        assert_eq!(t("5μs"), 5e-6);
        assert_eq!(t("5US"), 5e-6);
        assert_eq!(t("2ms"), 2e-3);
        assert_eq!(t("10ns"), 10e-9);
        assert_eq!(t("1.5s"), 1.5);
        assert_eq!(t("0us"), 0.0);
        let e = parse_time("5").expect_err("no unit");
        assert_eq!(e, UnitError::MissingUnit(Quantity::Time));
        assert_eq!(e.to_string(), "time needs a unit such as 5us or 2ms");
        assert_eq!(parse_time("-1ms"), Err(UnitError::Negative(Quantity::Time)));
        assert!(matches!(
            parse_time("5 parsecs"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_time("1e400s"),
            Err(UnitError::TooLarge(Quantity::Time))
        ));
        assert_eq!(parse_time(""), Err(UnitError::Empty(Quantity::Time)));
    }

    #[test]
    fn peta_bandwidths_are_read_as_they_are_printed() {
        // format_bandwidth prints up to "100 PB/s", the largest link rate a
        // view takes, so the parser reads P and Pi too: 10^15 and 2^50.
        let b = parse_bandwidth("100PB/s").expect("PB/s");
        assert_eq!(b.bytes_per_second, 1e17);
        let b = parse_bandwidth("8Pb/s").expect("Pb/s");
        assert_eq!(b.bytes_per_second, 1e15);
        let b = parse_bandwidth("1PiB/s").expect("PiB/s");
        assert_eq!(b.bytes_per_second, 1_125_899_906_842_624.0);
        assert_eq!(format_bandwidth(1e17), "100 PB/s");
    }

    #[test]
    fn bandwidth_bits_and_bytes_agree() {
        let bits = parse_bandwidth("100Gb/s").expect("bits");
        let bytes = parse_bandwidth("12.5GB/s").expect("bytes");
        assert!(bits.typed_bits);
        assert!(!bytes.typed_bits);
        assert_eq!(bits.bytes_per_second, 12.5e9);
        assert_eq!(bytes.bytes_per_second, 12.5e9);
        assert!((bits.beta() - 8e-11).abs() < 1e-24);
        assert!((bytes.beta() - 8e-11).abs() < 1e-24);
        assert_eq!(format_beta(8e-11), "0.08 ns/B");
        assert_eq!(format_beta(bits.beta()), "0.08 ns/B");
        assert_eq!(
            bandwidth_chain(&bits),
            "100 Gb/s = 12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"
        );
        assert_eq!(
            bandwidth_chain(&bytes),
            "12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"
        );
        let bps = |s: &str| {
            parse_bandwidth(s)
                .expect("valid bandwidth")
                .bytes_per_second
        };
        assert_eq!(bps("100Gbps"), 12.5e9);
        assert_eq!(bps("12.5GBps"), 12.5e9);
        assert_eq!(bps("100 Gbit/s"), 12.5e9);
        assert_eq!(bps("800Mb/s"), 1e8);
        assert_eq!(bps("1GiB/s"), 1_073_741_824.0);
        assert_eq!(bps("1 kB/s"), 1000.0);
        assert_eq!(bps("8b/s"), 1.0);
        assert_eq!(bps("2 bytes/sec"), 2.0);
        let e = parse_bandwidth("12.5GB").expect_err("a size");
        assert_eq!(e, UnitError::NotARate { unit: "GB".into() });
        let e = parse_bandwidth("12.5").expect_err("no unit");
        assert_eq!(
            e.to_string(),
            "bandwidth needs a unit such as 12.5GB/s or 100Gb/s"
        );
        assert_eq!(
            parse_bandwidth("0GB/s"),
            Err(UnitError::Zero(Quantity::Bandwidth))
        );
        assert_eq!(
            parse_bandwidth("-1GB/s"),
            Err(UnitError::Negative(Quantity::Bandwidth))
        );
        assert!(matches!(
            parse_bandwidth("1XB/s"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_bandwidth("1µB/s"),
            Err(UnitError::UnknownUnit { .. })
        ));
    }

    #[test]
    fn parse_beta_forms() {
        let b = |s: &str| parse_beta(s).expect("valid beta");
        assert!((b("0.08ns/B") - 8e-11).abs() < 1e-24);
        assert!((b("8e-11s/B") - 8e-11).abs() < 1e-24);
        assert!((b("0.08 ns/byte") - 8e-11).abs() < 1e-24);
        assert!((b("80ps/B") - 8e-11).abs() < 1e-24);
        assert_eq!(b("0ns/B"), 0.0);
        assert!(matches!(
            parse_beta("0.08ns"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_beta("0.08ns/b"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert_eq!(
            parse_beta("-1ns/B"),
            Err(UnitError::Negative(Quantity::Beta))
        );
        assert_eq!(parse_beta("1"), Err(UnitError::MissingUnit(Quantity::Beta)));
    }

    #[test]
    fn time_formatting_keeps_four_significant_figures() {
        assert_eq!(format_time(22.62e-6), "22.62 µs");
        assert_eq!(format_time(0.012), "12.00 ms");
        assert_eq!(format_time(0.01011), "10.11 ms");
        assert_eq!(format_time(1.5112e-4), "151.1 µs");
        assert_eq!(format_time(0.0), "0 s");
        assert_eq!(format_time(2.5), "2.500 s");
        assert_eq!(format_time(5e-9), "5.000 ns");
        // Rounding that crosses a unit boundary moves to the larger unit.
        assert_eq!(format_time(0.00099996), "1.000 ms");
        assert_eq!(format_time(-2e-6), "-2.000 µs");
    }

    #[test]
    fn beta_formatting() {
        assert_eq!(format_beta(1e-9), "1 ns/B");
        assert_eq!(format_beta(1.0 / 1e8), "10 ns/B");
        assert_eq!(format_beta(2e-6), "2 µs/B");
        assert_eq!(format_beta(5e-13), "0.5 ps/B");
        assert_eq!(format_beta(0.0), "0 ns/B");
        assert_eq!(format_beta(1.0 / 3e9), "0.3333 ns/B");
    }

    #[test]
    fn sig_figures() {
        assert_eq!(sig(22.6208, 4), "22.62");
        assert_eq!(sig(12.0, 4), "12.00");
        assert_eq!(sig(123_456.0, 4), "123500");
        assert_eq!(sig(0.000_123_456, 3), "0.000123");
        assert_eq!(sig(9.9996, 4), "10.00");
        assert_eq!(sig(0.0, 4), "0");
        assert_eq!(sig(-1.5, 2), "-1.5");
    }

    #[test]
    fn size_formatting() {
        assert_eq!(group_thousands(67_108_864), "67,108,864");
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(format_size(67_108_864), "67,108,864 B (64 MiB, 67.11 MB)");
        assert_eq!(
            format_size(100_000_000),
            "100,000,000 B (100 MB, 95.37 MiB)"
        );
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(1000), "1,000 B (1 kB)");
        assert_eq!(format_size(8192), "8,192 B (8 KiB, 8.192 kB)");
        assert_eq!(format_decimal(25e6), "25 MB");
        assert_eq!(format_decimal(117_647.06), "117.6 kB");
        assert_eq!(format_decimal(512.0), "512 B");
        assert_eq!(format_decimal(999_960.0), "1 MB");
        assert_eq!(format_binary(67_108_864.0), "64 MiB");
        assert_eq!(format_binary(117_647.06), "114.9 KiB");
        assert_eq!(format_both(117_647.06), "117.6 kB (114.9 KiB)");
        assert_eq!(format_both(512.0), "512 B");
        assert_eq!(
            both_prefixes(8192.0),
            ("8.192 kB".to_string(), Some("8 KiB".to_string()))
        );
        assert_eq!(both_prefixes(512.0), ("512 B".to_string(), None));
        assert_eq!(format_bytes_short(150e6), "150 MB");
        assert_eq!(format_bytes_short(8192.0), "8.192 kB");
        assert_eq!(format_bandwidth(12.5e9), "12.5 GB/s");
        assert_eq!(format_bit_rate(1e11), "100 Gb/s");
    }

    #[test]
    fn errors_have_examples() {
        assert_eq!(
            UnitError::MissingUnit(Quantity::Bandwidth).to_string(),
            "bandwidth needs a unit such as 12.5GB/s or 100Gb/s"
        );
        assert!(UnitError::NotWholeBytes
            .to_string()
            .starts_with("size must be a whole number of bytes"));
        assert!(UnitError::Zero(Quantity::Size)
            .to_string()
            .contains("64MiB"));
    }
}

/// `unit_lowercase` matches units exactly as `str::to_lowercase` did.
mod unit_case {
    use super::*;

    #[test]
    fn unit_lowercase_is_to_lowercase_on_units() {
        for u in [
            "B",
            "KB",
            "kB",
            "Kb",
            "MIB",
            "GiB",
            "TIB",
            "Bytes",
            "MBit",
            "S",
            "MS",
            "Us",
            "NS",
            "PS",
            "\u{b5}S",
            "\u{3bc}s",
            "\u{39c}S",
            "\u{212a}B",
            "\u{212a}IB",
        ] {
            assert_eq!(unit_lowercase(u), u.to_lowercase(), "{u}");
        }
        // The Kelvin sign is a kilo prefix and capital mu a micro prefix, as before.
        assert_eq!(parse_size("2\u{212a}B").map(|s| s.bytes), Ok(2000));
        assert_eq!(parse_time("5\u{39c}S"), Ok(5e-6));
        // Other non-ASCII letters stay as typed: the unit is unknown either way.
        assert_eq!(unit_lowercase("\u{130}B"), "\u{130}b");
        assert!(parse_size("2\u{130}B").is_err());
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn any_prefix() -> impl Strategy<Value = Prefix> {
        prop_oneof![
            Just(Prefix::None),
            Just(Prefix::Decimal),
            Just(Prefix::Binary)
        ]
    }

    proptest! {
        #[test]
        fn size_round_trips_in_each_family(bytes in 1u64..1_000_000_000_000_000, prefix in any_prefix()) {
            let b = ByteSize { bytes, prefix };
            let text = b.to_string();
            prop_assert_eq!(parse_size(&text), Ok(b), "text {}", text);
            // With a space between number and unit, and lower-case letters.
            let (num, unit) = split_number(&text);
            let spaced = format!("{num} {}", unit.to_lowercase());
            prop_assert_eq!(parse_size(&spaced).map(|s| s.bytes), Ok(bytes));
        }

        #[test]
        fn four_sig_fig_sizes_are_close(bytes in 1u64..1_000_000_000_000_000) {
            // The display forms are within half a unit in the 4th figure.
            let unit_bytes = |u: &str| match u {
                "B" => 1.0,
                "kB" => 1e3,
                "MB" => 1e6,
                "GB" => 1e9,
                "TB" => 1e12,
                "PB" => 1e15,
                "KiB" => 1024.0,
                "MiB" => 1_048_576.0,
                "GiB" => 1_073_741_824.0,
                "TiB" => 1_099_511_627_776.0,
                _ => f64::NAN,
            };
            for text in [format_decimal(bytes as f64), format_binary(bytes as f64)] {
                let (num, unit) = text.split_once(' ').expect("number and unit");
                let shown: f64 = num.parse().expect("a number");
                let rel = (shown * unit_bytes(unit) - bytes as f64).abs() / bytes as f64;
                prop_assert!(rel <= 5e-4, "{} vs {}", text, bytes);
            }
        }

        #[test]
        fn time_round_trips_in_ns(t in 0.0f64..1e3) {
            let text = format!("{}ns", t * 1e9);
            let back = parse_time(&text).expect("formatted time parses");
            prop_assert!((back - t).abs() <= 1e-12 * t.abs().max(f64::MIN_POSITIVE), "{} -> {}", t, back);
        }

        #[test]
        fn formatted_time_parses_back(t in 1e-10f64..1e3) {
            let back = parse_time(&format_time(t)).expect("format_time output parses");
            prop_assert!((back - t).abs() <= 5e-4 * t);
        }

        #[test]
        fn bandwidth_round_trips(x in 1.0f64..1e13) {
            let back = parse_bandwidth(&format_bandwidth(x)).expect("formatted bandwidth parses");
            prop_assert!((back.bytes_per_second - x).abs() <= 1e-3 * x);
            let bits = parse_bandwidth(&format_bit_rate(8.0 * x)).expect("formatted bit rate parses");
            prop_assert!(bits.typed_bits);
            prop_assert!((bits.bytes_per_second - x).abs() <= 1e-3 * x);
        }

        #[test]
        fn beta_round_trips(x in 1e-14f64..1e-3) {
            let back = parse_beta(&format_beta(x)).expect("formatted beta parses");
            prop_assert!((back - x).abs() <= 1e-3 * x);
        }
    }
}
