// shapes.cpp -- profhub sample: C++ with namespaces, a class hierarchy
// with virtual calls, templates and inline helpers.  Built with -O2 -g by
// samples/regen.sh so that the inline helpers really are inlined (callgrind
// then reports their lines through fi=/fe= records).  An optional argument
// scales the work (default 1).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace geom {

inline double sq(double x) { return x * x; }

struct Point {
	double x, y;
};

inline double dist(const Point &a, const Point &b)
{
	return std::sqrt(sq(a.x - b.x) + sq(a.y - b.y));
}

class Shape {
public:
	virtual ~Shape() = default;
	virtual double area() const = 0;
	virtual double perimeter() const = 0;
};

class Circle : public Shape {
public:
	explicit Circle(double r) : r_(r) {}
	double area() const override { return 3.14159265358979 * sq(r_); }
	double perimeter() const override { return 2 * 3.14159265358979 * r_; }

private:
	double r_;
};

class Rect : public Shape {
public:
	Rect(double w, double h) : w_(w), h_(h) {}
	double area() const override { return w_ * h_; }
	double perimeter() const override { return 2 * (w_ + h_); }

private:
	double w_, h_;
};

class Triangle : public Shape {
public:
	Triangle(Point a, Point b, Point c) : a_(a), b_(b), c_(c) {}
	double area() const override;
	double perimeter() const override
	{
		return dist(a_, b_) + dist(b_, c_) + dist(c_, a_);
	}

private:
	Point a_, b_, c_;
};

__attribute__((noinline)) double Triangle::area() const
{
	double s = perimeter() / 2;
	return std::sqrt(s * (s - dist(a_, b_)) * (s - dist(b_, c_)) *
			 (s - dist(c_, a_)));
}

} // namespace geom

namespace stats {

template <typename T, typename F>
__attribute__((noinline)) T accumulate(const std::vector<T> &v, F f)
{
	T sum = T();
	for (const T &x : v)
		sum += f(x);
	return sum;
}

} // namespace stats

static std::vector<std::unique_ptr<geom::Shape>> make_shapes(int n)
{
	std::vector<std::unique_ptr<geom::Shape>> v;
	for (int i = 0; i < n; i++) {
		double k = 1 + i % 17;
		switch (i % 3) {
		case 0:
			v.push_back(std::make_unique<geom::Circle>(k));
			break;
		case 1:
			v.push_back(std::make_unique<geom::Rect>(k, k + 2));
			break;
		default:
			v.push_back(std::make_unique<geom::Triangle>(
				geom::Point{0, 0}, geom::Point{k, 0},
				geom::Point{0, k + 1}));
			break;
		}
	}
	return v;
}

__attribute__((noinline)) static double total_area(
	const std::vector<std::unique_ptr<geom::Shape>> &v)
{
	double a = 0;
	for (const auto &s : v)
		a += s->area();
	return a;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? std::atoi(argv[1]) : 1;
	auto shapes = make_shapes(3000);
	std::vector<double> values;
	std::vector<long> counts;
	double area = 0, perim = 0;
	long n = 0;

	for (int r = 0; r < 20 * (scale > 0 ? scale : 1); r++) {
		area += total_area(shapes);
		for (const auto &s : shapes)
			values.push_back(s->perimeter());
		perim += stats::accumulate(values, [](double x) { return geom::sq(x); });
		counts.push_back(static_cast<long>(values.size()));
		n += stats::accumulate(counts, [](long x) { return x % 7; });
		values.clear();
	}
	std::printf("shapes: %.3f %.3f %ld\n", area, perim, n);
	return 0;
}
